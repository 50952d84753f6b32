package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdra up} over its life as a user sees it: Ctrl-C while a demo runs and {@code jdra up}
 * again on the same data dir resumes it; and a 100-node start, whose ready time and memory the test
 * prints.
 */
class ClusterLifecycleE2ETest {
  static final String NS = "basic-resourceclaimtemplate";

  @TempDir static Path dir;
  static Path demos;

  @BeforeAll
  static void examples() {
    demos = Demos.examplesOrSkip();
  }

  /**
   * SIGTERM stops everything within 10 s; the next start on the data dir keeps the objects, the
   * node re-registers, the driver republishes, the claims stay allocated and prepared (their CDI
   * specs stay) and the pods run on; then deleting the demo releases everything.
   */
  @Test
  void restartOnTheSameDataDirResumes() throws Exception {
    Path data = dir.resolve("restart");
    Path manifest = demos.resolve(NS + "/" + NS + ".yaml");
    Map<String, String> before;
    try (JdraUpProcess up = JdraUpProcess.start(data)) {
      up.kubectl().run("apply", "-f", manifest.toString()).ok();
      Demos.awaitRunning(up, NS, "pod0", "pod1");
      before = devicesByClaim(up);
      Duration stop = up.stop();
      assertThat(stop).as("stop after SIGTERM").isLessThan(Duration.ofSeconds(10));
    }
    assertThat(cdiSpecs(data)).as("CDI specs of the prepared claims").hasSize(2);

    try (JdraUpProcess up = JdraUpProcess.start(data)) {
      assertThat(devicesByClaim(up)).as("claims and their devices").isEqualTo(before);
      Demos.awaitRunning(up, NS, "pod0", "pod1");
      Node node = up.client().nodes().withName("node-1").get();
      assertThat(node.getStatus().getConditions())
          .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
      List<ResourceSlice> slices = up.client().resources(ResourceSlice.class).list().getItems();
      assertThat(slices).extracting(s -> s.getSpec().getNodeName()).containsExactly("node-1");
      // The kubelet serves a container's log again once it has re-synced the pod.
      org.awaitility.Awaitility.await()
          .atMost(Demos.TIMEOUT)
          .pollInterval(Demos.POLL)
          .untilAsserted(() ->
              assertThat(up.kubectl().run("logs", "-n", NS, "pod0").out()).contains("GPU_DEVICE_"));
      assertThat(cdiSpecs(data)).as("CDI specs after the restart").hasSize(2);

      // --ignore-not-found: the namespace goes first and may take its template with it.
      Demos.deleteAndAwaitGone(up, NS, manifest);
      org.awaitility.Awaitility.await()
          .atMost(Demos.TIMEOUT)
          .untilAsserted(() -> assertThat(cdiSpecs(data)).as("CDI specs after delete").isEmpty());
    }
  }

  /** 100 nodes get ready; prints the time to ready and the process's resident memory. */
  @Test
  void hundredNodes() throws Exception {
    long t0 = System.nanoTime();
    try (JdraUpProcess up = JdraUpProcess.start(dir.resolve("hundred"), "--nodes=100")) {
      Duration ready = Duration.ofNanos(System.nanoTime() - t0);
      assertThat(up.readyLine()).contains("100 nodes");
      assertThat(up.client().nodes().list().getItems()).hasSize(100);
      assertThat(up.client().resources(ResourceSlice.class).list().getItems()).hasSize(100);
      long rssKb = rssKb(up.pid());
      System.out.printf(
          "jdra up --nodes=100: ready in %.1f s, RSS %d MB%n",
          ready.toMillis() / 1000.0, rssKb / 1024);
      Duration stop = up.stop();
      System.out.printf("jdra up --nodes=100: stopped in %.1f s%n", stop.toMillis() / 1000.0);
      assertThat(stop).isLessThan(Duration.ofSeconds(10));
    }
  }

  private static Map<String, String> devicesByClaim(JdraUpProcess up) throws Exception {
    return Demos.claims(up, NS).stream()
        .collect(
            Collectors.toMap(
                (ResourceClaim c) -> c.getMetadata().getName(),
                c ->
                    c.getStatus().getAllocation().getDevices().getResults().get(0).getDevice()
                        + " reserved for "
                        + c.getStatus().getReservedFor().get(0).getName()));
  }

  /** The claims' CDI specs in node-1's CDI root (the driver's common spec excluded). */
  private static List<String> cdiSpecs(Path data) throws Exception {
    try (Stream<Path> s = Files.list(data.resolve("nodes/node-1/cdi"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.contains("common")).toList();
    }
  }

  private static long rssKb(long pid) throws Exception {
    for (String l :
        Files.readAllLines(Path.of("/proc/" + pid + "/status"), StandardCharsets.UTF_8)) {
      if (l.startsWith("VmRSS:")) {
        return Long.parseLong(l.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }
}
