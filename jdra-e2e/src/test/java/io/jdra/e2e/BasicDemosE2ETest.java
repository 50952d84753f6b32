package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dra-example-driver demos that need only the default chart values, on one {@code jdra up} (one
 * node, profile gpu, 8 GPUs), each checked for what a real cluster shows and then deleted and
 * checked for release.
 */
class BasicDemosE2ETest {
  @TempDir static Path dir;
  static JdraUpProcess up;
  static Path demos;

  @BeforeAll
  static void startCluster() throws Exception {
    Assumptions.assumeTrue(Paths.kubectl() != null, "kubectl not installed; skipping");
    Path ex = Paths.examples();
    Assumptions.assumeTrue(ex != null, "upstream examples absent; skipping");
    demos = ex.resolve("dra-example-driver/demo/examples");
    up = JdraUpProcess.start(dir.resolve("data"));
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (up != null) {
      up.close();
    }
  }

  @Test
  void basicResourceClaimTemplate() throws Exception {
    String ns = "basic-resourceclaimtemplate";
    Path manifest = demos.resolve(ns + "/" + ns + ".yaml");
    up.kubectl().run("apply", "-f", manifest.toString()).ok();
    KubernetesClient c = up.client();
    awaitRunning(c, ns, "pod0", "pod1");

    List<ResourceClaim> claims =
        c.dynamicResourceAllocation().v1().resourceClaims().inNamespace(ns).list().getItems();
    assertThat(claims).hasSize(2);
    Set<String> devices = new HashSet<>();
    for (ResourceClaim claim : claims) {
      assertThat(claim.getMetadata().getName()).matches("pod[01]-gpu-[a-z0-9]{5}");
      List<DeviceRequestAllocationResult> results =
          claim.getStatus().getAllocation().getDevices().getResults();
      assertThat(results).hasSize(1);
      devices.add(results.get(0).getDevice());
    }
    assertThat(devices).as("each pod gets its own GPU").hasSize(2);

    Set<String> seen = new HashSet<>();
    for (String pod : List.of("pod0", "pod1")) {
      String logs = up.kubectl().run("logs", "-n", ns, pod, "-c", "ctr0").ok().out();
      List<String> gpuLines = logs.lines().filter(l -> l.contains("GPU_DEVICE_")).toList();
      assertThat(gpuLines).as(pod + " logs:\n" + logs).isNotEmpty();
      seen.add(gpuLines.get(0).replaceAll(".*=", ""));
    }
    assertThat(seen).as("distinct GPU ids in the containers' environments").hasSize(2);

    up.kubectl().run("delete", "-f", manifest.toString(), "--wait=true").ok();
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(() ->
            assertThat(
                    c.dynamicResourceAllocation()
                        .v1()
                        .resourceClaims()
                        .inNamespace(ns)
                        .list()
                        .getItems())
                .as("generated claims deleted")
                .isEmpty());
  }

  static void awaitRunning(KubernetesClient c, String ns, String... pods) {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> {
          for (String name : pods) {
            Pod p = c.pods().inNamespace(ns).withName(name).get();
            assertThat(p).as(ns + "/" + name).isNotNull();
            assertThat(p.getStatus().getPhase())
                .as(ns + "/" + name + " phase; jdra up log:\n" + up.logTail())
                .isEqualTo("Running");
          }
        });
  }
}
