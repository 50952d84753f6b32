package io.jdra.kubelet.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resolving CDI device names against spec files that drivers add, replace and remove. */
class CdiRegistryTest {
  @TempDir Path dir;

  /** Writes a spec as drivers do: a temporary file renamed over the target. */
  void write(String file, String kind, String common, String... devices) throws Exception {
    StringBuilder d = new StringBuilder();
    for (String dev : devices) {
      String[] nv = dev.split(":");
      d.append(d.isEmpty() ? "" : ",")
          .append("{\"name\":\"")
          .append(nv[0])
          .append("\",\"containerEdits\":{\"env\":[\"")
          .append(nv[1])
          .append("\"]}}");
    }
    String json =
        "{\"cdiVersion\":\"0.5.0\",\"kind\":\""
            + kind
            + "\",\"containerEdits\":{\"env\":["
            + (common.isEmpty() ? "" : "\"" + common + "\"")
            + "]},\"devices\":["
            + d
            + "]}";
    Path tmp = dir.resolve("." + file + ".tmp");
    Files.writeString(tmp, json);
    Files.move(tmp, dir.resolve(file), StandardCopyOption.ATOMIC_MOVE);
  }

  @Test
  void commonEditsOncePerSpecThenEachDevice() throws Exception {
    write("a.json", "k8s.gpu.example.com/gpu", "DRIVER=gpu", "g0:G0=0", "g1:G1=1");
    write("b.json", "k8s.net.example.com/nic", "", "n0:N0=0");
    var reg = new CdiRegistry(dir);
    assertThat(
            reg.resolve(
                    List.of(
                        "k8s.gpu.example.com/gpu=g0",
                        "k8s.net.example.com/nic=n0",
                        "k8s.gpu.example.com/gpu=g1"))
                .env())
        .containsExactly("DRIVER=gpu", "G0=0", "N0=0", "G1=1");
  }

  @Test
  void specsAddedReplacedAndRemovedAfterTheFirstResolveAreSeen() throws Exception {
    var reg = new CdiRegistry(dir);
    assertThatThrownBy(() -> reg.resolve(List.of("k8s.gpu.example.com/gpu=claim-1")))
        .isInstanceOf(CdiRegistry.UnresolvableDevicesException.class)
        .hasMessage("unresolvable CDI devices k8s.gpu.example.com/gpu=claim-1");

    write("claim-1.json", "k8s.gpu.example.com/gpu", "", "claim-1:GPU=a");
    assertThat(reg.resolve(List.of("k8s.gpu.example.com/gpu=claim-1")).env())
        .containsExactly("GPU=a");

    // Same size, replaced by a rename (another file): the new content is read.
    write("claim-1.json", "k8s.gpu.example.com/gpu", "", "claim-1:GPU=b");
    assertThat(reg.resolve(List.of("k8s.gpu.example.com/gpu=claim-1")).env())
        .containsExactly("GPU=b");

    Files.delete(dir.resolve("claim-1.json"));
    assertThatThrownBy(() -> reg.resolve(List.of("k8s.gpu.example.com/gpu=claim-1")))
        .isInstanceOf(CdiRegistry.UnresolvableDevicesException.class);
  }

  @Test
  void brokenAndForeignFilesAreSkipped() throws Exception {
    Files.writeString(dir.resolve("broken.json"), "{not json");
    Files.writeString(dir.resolve("notes.txt"), "hello");
    write("ok.yaml", "k8s.gpu.example.com/gpu", "", "g0:G0=0");
    assertThat(new CdiRegistry(dir).resolve(List.of("k8s.gpu.example.com/gpu=g0")).env())
        .containsExactly("G0=0");
  }
}
