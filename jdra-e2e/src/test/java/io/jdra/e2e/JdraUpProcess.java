package io.jdra.e2e;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code jdra up} started as a user starts it: the packaged CLI in its own JVM, with a data dir and
 * a free port. {@link #close()} stops it by its pid as Ctrl-C would (SIGTERM) and waits for it.
 */
final class JdraUpProcess implements AutoCloseable {
  static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

  private final Process process;
  private final Path dataDir;
  private final Path log;
  private final String readyLine;
  private final List<String> output;
  private KubernetesClient client;

  private JdraUpProcess(
      Process process, Path dataDir, Path log, String readyLine, List<String> output) {
    this.output = output;
    this.process = process;
    this.dataDir = dataDir;
    this.log = log;
    this.readyLine = readyLine;
  }

  /** Starts {@code jdra up --data-dir DIR --port 0 ARGS...} and waits for its ready line. */
  static JdraUpProcess start(Path dataDir, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.java().toString());
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.add("-jar");
    cmd.add(Paths.cliJar().toString());
    cmd.add("up");
    cmd.add("--data-dir=" + dataDir);
    cmd.add("--port=0");
    cmd.addAll(List.of(args));
    Files.createDirectories(dataDir);
    Path log = dataDir.resolve("jdra-up.log");
    Process p =
        new ProcessBuilder(cmd)
            .redirectError(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .start();
    CompletableFuture<String> ready = new CompletableFuture<>();
    List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());
    Thread.ofVirtual()
        .start(() -> {
          try (BufferedReader r =
              new BufferedReader(
                  new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
              output.add(line);
              if (line.contains("ready") && !ready.isDone()) {
                ready.complete(line);
              }
            }
            ready.completeExceptionally(new IllegalStateException("jdra up exited"));
          } catch (IOException e) {
            ready.completeExceptionally(e);
          }
        });
    try {
      String line = ready.get(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      return new JdraUpProcess(p, dataDir, log, line, output);
    } catch (Exception e) {
      p.destroyForcibly();
      throw new IllegalStateException(
          "jdra up did not get ready: " + e + "\n--- its log:\n" + tail(log), e);
    }
  }

  Path kubeconfig() {
    return dataDir.resolve("kubeconfig");
  }

  String readyLine() {
    return readyLine;
  }

  /** What jdra up printed on stdout so far. */
  List<String> output() {
    synchronized (output) {
      return List.copyOf(output);
    }
  }

  long pid() {
    return process.pid();
  }

  /** An admin client for assertions (the user's kubeconfig). */
  synchronized KubernetesClient client() throws IOException {
    if (client == null) {
      Config c = Config.fromKubeconfig(Files.readString(kubeconfig(), StandardCharsets.UTF_8));
      client = new KubernetesClientBuilder().withConfig(c).build();
    }
    return client;
  }

  Kubectl kubectl() {
    return new Kubectl(kubeconfig(), dataDir);
  }

  /** Stops as Ctrl-C does and returns how long it took; kills it if it hangs. */
  Duration stop() throws InterruptedException {
    long start = System.nanoTime();
    if (client != null) {
      client.close();
      client = null;
    }
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new IllegalStateException("jdra up did not stop within 30 s\n" + tail(log));
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      try {
        stop();
      } finally {
        process.destroyForcibly();
      }
    }
  }

  String logTail() {
    return tail(log);
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
