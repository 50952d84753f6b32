package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dra-example-driver demos that need other chart values, each on a {@code jdra up} started with the
 * flags for those values: {@code gpuAllowMultipleAllocations=true} for
 * gpu-allow-multiple-allocations, {@code kubeletPlugin.gpuPartitions=4, numDevices=2} for
 * partitionable-devices. Each test stops its own {@code jdra up} (try-with-resources).
 */
class FlaggedDemosE2ETest {
  @TempDir static Path dir;
  static Path demos;

  @BeforeAll
  static void examples() {
    demos = Demos.examplesOrSkip();
  }

  /** Both pods share one GPU, each claim consuming its 16Gi and 20 compute with its own share. */
  @Test
  void gpuAllowMultipleAllocations() throws Exception {
    String ns = "gpu-allow-multiple-allocations";
    try (JdraUpProcess up =
        JdraUpProcess.start(
            dir.resolve("multi"), "--driver-flags=--gpu-allow-multiple-allocations")) {
      Path manifest = demos.resolve(ns + "/" + ns + ".yaml");
      up.kubectl().run("apply", "-f", manifest.toString()).ok();
      List<DeviceRequestAllocationResult> results =
          awaitResults(up, ns, List.of("shared-gpu-pod0", "shared-gpu-pod1"));
      assertThat(results).extracting(r -> r.getDevice()).containsOnly(results.get(0).getDevice());
      assertThat(results)
          .extracting(r -> r.getShareID())
          .doesNotContainNull()
          .doesNotHaveDuplicates();
      for (DeviceRequestAllocationResult r : results) {
        assertThat(r.getConsumedCapacity().get("memory").toString()).isEqualTo("16Gi");
        assertThat(r.getConsumedCapacity().get("compute").toString()).isEqualTo("20");
      }
      for (String pod : List.of("pod0", "pod1")) {
        Demos.awaitLogLine(up, ns, pod, "declare -x GPU_DEVICE_" + gpuNumber(results.get(0)) + "=");
      }
      Demos.deleteAndAwaitGone(up, ns, manifest);
    }
  }

  /** pod0's claim of count 2 gets two partitions of a GPU, never a partition and its whole GPU. */
  @Test
  void partitionableDevices() throws Exception {
    String ns = "partitionable-devices";
    try (JdraUpProcess up =
        JdraUpProcess.start(
            dir.resolve("partitions"), "--num-devices=2", "--driver-flags=--gpu-partitions=4")) {
      Path manifest = demos.resolve(ns + "/" + ns + ".yaml");
      up.kubectl().run("apply", "-f", manifest.toString()).ok();
      ResourceClaim claim =
          await()
              .atMost(Duration.ofSeconds(60))
              .pollInterval(Duration.ofMillis(200))
              .until(
                  () -> Demos.claims(up, ns).stream().findFirst().orElse(null),
                  c -> c != null && c.getStatus() != null && c.getStatus().getAllocation() != null);
      List<String> devices =
          claim.getStatus().getAllocation().getDevices().getResults().stream()
              .map(DeviceRequestAllocationResult::getDevice)
              .toList();
      assertThat(devices).hasSize(2).allMatch(d -> d.matches("gpu-[01]-partition-[0-3]"));
      for (String d : devices) {
        Demos.awaitLogLine(up, ns, "pod0", "=\"" + d + "\"");
      }
      Demos.deleteAndAwaitGone(up, ns, manifest);
    }
  }

  /**
   * Both pods share one partition of the single GPU, each claim consuming its 8Gi and 10 compute of
   * the partition with its own share.
   */
  @Test
  void gpuAllowMultipleAllocationsPartitionable() throws Exception {
    String ns = "gpu-allow-multiple-allocations-partitionable";
    try (JdraUpProcess up =
        JdraUpProcess.start(
            dir.resolve("multi-partitions"),
            "--num-devices=1",
            "--driver-flags=--gpu-allow-multiple-allocations --gpu-partitions=4")) {
      Path manifest = demos.resolve(ns + "/" + ns + ".yaml");
      up.kubectl().run("apply", "-f", manifest.toString()).ok();
      List<DeviceRequestAllocationResult> results =
          awaitResults(up, ns, List.of("shared-partition-pod0", "shared-partition-pod1"));
      String device = results.get(0).getDevice();
      assertThat(device).matches("gpu-0-partition-[0-3]");
      assertThat(results).extracting(r -> r.getDevice()).containsOnly(device);
      assertThat(results)
          .extracting(r -> r.getShareID())
          .doesNotContainNull()
          .doesNotHaveDuplicates();
      for (DeviceRequestAllocationResult r : results) {
        assertThat(r.getConsumedCapacity().get("memory").toString()).isEqualTo("8Gi");
        assertThat(r.getConsumedCapacity().get("compute").toString()).isEqualTo("10");
      }
      for (String pod : List.of("pod0", "pod1")) {
        Demos.awaitLogLine(up, ns, pod, "=\"" + device + "\"");
      }
      Demos.deleteAndAwaitGone(up, ns, manifest);
    }
  }

  /**
   * With the net profile and one NIC, both pods get that NIC, each with the bandwidth it asked for,
   * which the driver hands to the container as bits per second.
   */
  @Test
  void netConsumableCapacity() throws Exception {
    String ns = "net-consumable-capacity";
    try (JdraUpProcess up =
        JdraUpProcess.start(dir.resolve("net"), "--device-profiles=net", "--num-devices=1")) {
      Path manifest = demos.resolve(ns + "/" + ns + ".yaml");
      up.kubectl().run("apply", "-f", manifest.toString()).ok();
      List<ResourceClaim> claims = awaitAllocated(up, ns, 2);
      List<DeviceRequestAllocationResult> results =
          claims.stream()
              .flatMap(c -> c.getStatus().getAllocation().getDevices().getResults().stream())
              .toList();
      assertThat(results).extracting(r -> r.getDevice()).containsOnly(results.get(0).getDevice());
      assertThat(results)
          .extracting(r -> r.getShareID())
          .doesNotContainNull()
          .doesNotHaveDuplicates();
      Demos.awaitLogLine(up, ns, "pod0", "_INGRESS_RATE=\"10000000000\"");
      Demos.awaitLogLine(up, ns, "pod0", "_EGRESS_RATE=\"5000000000\"");
      Demos.awaitLogLine(up, ns, "pod1", "_INGRESS_RATE=\"5000000000\"");
      Demos.awaitLogLine(up, ns, "pod1", "_EGRESS_RATE=\"5000000000\"");
      Demos.deleteAndAwaitGone(up, ns, manifest);
    }
  }

  private static List<ResourceClaim> awaitAllocated(JdraUpProcess up, String ns, int n) {
    return await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                Demos.claims(up, ns).stream()
                    .filter(c -> c.getStatus() != null && c.getStatus().getAllocation() != null)
                    .toList(),
            cs -> cs.size() == n);
  }

  private static String gpuNumber(DeviceRequestAllocationResult r) {
    return r.getDevice().substring("gpu-".length());
  }

  private static List<DeviceRequestAllocationResult> awaitResults(
      JdraUpProcess up, String ns, List<String> names) {
    return await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              List<ResourceClaim> cs =
                  Demos.claims(up, ns).stream()
                      .filter(c -> names.contains(c.getMetadata().getName()))
                      .filter(c -> c.getStatus() != null && c.getStatus().getAllocation() != null)
                      .toList();
              return cs.size() < names.size()
                  ? null
                  : cs.stream()
                      .flatMap(
                          c -> c.getStatus().getAllocation().getDevices().getResults().stream())
                      .toList();
            },
            r -> r != null);
  }
}
