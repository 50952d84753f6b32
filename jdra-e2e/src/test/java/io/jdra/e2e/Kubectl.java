package io.jdra.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** kubectl as the user runs it, with the kubeconfig {@code jdra up} wrote. */
final class Kubectl {
  private final Path kubeconfig;
  private final Path scratch;

  Kubectl(Path kubeconfig, Path scratch) {
    this.kubeconfig = kubeconfig;
    this.scratch = scratch;
  }

  record Result(int exit, String out, String err) {
    Result ok() {
      if (exit != 0) {
        throw new AssertionError("kubectl failed (exit " + exit + "): " + err + out);
      }
      return this;
    }
  }

  Result run(String... args) throws IOException, InterruptedException {
    Path kubectl = Paths.kubectl();
    List<String> cmd = new ArrayList<>();
    cmd.add(kubectl.toString());
    cmd.add("--kubeconfig=" + kubeconfig);
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(scratch, "kubectl", ".out");
    Path err = Files.createTempFile(scratch, "kubectl", ".err");
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().put("HOME", scratch.toString());
    Process p = pb.start();
    p.getOutputStream().close();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
    }
    Result r =
        new Result(
            p.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    Files.deleteIfExists(out);
    Files.deleteIfExists(err);
    return r;
  }
}
