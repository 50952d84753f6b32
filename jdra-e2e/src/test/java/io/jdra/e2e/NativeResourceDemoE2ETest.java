package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * native-resource-request (KEP 5517) on {@code jdra up --device-profiles cpu --feature-gates
 * DRANodeAllocatableResources=true --driver-flags "--cpu-numa-nodes=1 --cpus-per-numa-node=2"} (the
 * README's chart values {@code deviceProfile=cpu}, {@code kubeletPlugin.cpu.numaNodes=1}, {@code
 * cpusPerNUMANode=2}; DRAConsumableCapacity is on by default in 1.36): the pod's claim gets the one
 * NUMA device twice with two share IDs, and the scheduler records the 2 cpu it takes of the node in
 * {@code status.nodeAllocatableResourceClaimStatuses}.
 */
class NativeResourceDemoE2ETest {
  static final String NS = "native-resource-request";

  @TempDir static Path dir;
  static Path manifest;

  @BeforeAll
  static void examples() {
    manifest = Demos.manifestOrSkip(NS);
  }

  @Test
  void bothCpuRequestsShareOneNumaDeviceAndCountAgainstTheNode() throws Exception {
    try (JdraUpProcess up =
        JdraUpProcess.start(
            dir.resolve("data"),
            "--device-profiles=cpu",
            "--feature-gates=DRANodeAllocatableResources=true",
            "--driver-flags=--cpu-numa-nodes=1 --cpus-per-numa-node=2")) {
      ResourceSlice slice = up.client().resources(ResourceSlice.class).list().getItems().get(0);
      assertThat(slice.getSpec().getDevices().get(0).getAdditionalProperties())
          .as("the published device keeps its mapping (the gate is on in the API server)")
          .containsEntry(
              "nodeAllocatableResourceMappings",
              Map.of("cpu", Map.of("capacityKey", "cpu.example.com/cpu")));

      Demos.apply(up, manifest);
      Demos.awaitRunning(up, NS, "pod0");

      ResourceClaim claim = Demos.claims(up, NS).get(0);
      assertThat(claim.getMetadata().getName()).matches("pod0-cpus-[a-z0-9]{5}");
      List<DeviceRequestAllocationResult> results =
          claim.getStatus().getAllocation().getDevices().getResults();
      assertThat(results).extracting(r -> r.getRequest()).containsExactly("cpu0", "cpu1");
      assertThat(results).extracting(r -> r.getDevice()).containsExactly("numa-0", "numa-0");
      assertThat(results)
          .extracting(r -> r.getShareID())
          .doesNotContainNull()
          .doesNotHaveDuplicates();
      for (DeviceRequestAllocationResult r : results) {
        assertThat(r.getConsumedCapacity().get("cpu.example.com/cpu").toString()).isEqualTo("1");
      }
      // The README's step 4, as the user runs it.
      String statuses =
          up.kubectl()
              .run(
                  "get",
                  "pod",
                  "-n",
                  NS,
                  "pod0",
                  "-o",
                  "jsonpath={.status.nodeAllocatableResourceClaimStatuses}")
              .ok()
              .out();
      assertThat(statuses)
          .isEqualTo(
              "[{\"containers\":[\"ctr0\"],\"resourceClaimName\":\""
                  + claim.getMetadata().getName()
                  + "\",\"resources\":{\"cpu\":\"2\"}}]");
      String shares =
          up.kubectl()
              .run(
                  "get",
                  "resourceclaims",
                  "-n",
                  NS,
                  "-o",
                  "jsonpath={range .items[*].status.allocation.devices.results[*]}{.device}{\" \"}{.shareID}{\"\\n\"}{end}")
              .ok()
              .out();
      assertThat(shares.lines().toList())
          .hasSize(2)
          .allMatch(l -> l.matches("numa-0 [0-9a-f-]{36}"));
      Demos.awaitLogLine(up, NS, "pod0", "declare -x CPU_DEVICE_0=\"numa-0\"");
      Demos.awaitLogLine(up, NS, "pod0", "declare -x CPU_DEVICE_0_CONSUMED_CPU=\"1\"");

      Demos.deleteAndAwaitGone(up, NS, manifest);
      await()
          .atMost(Demos.TIMEOUT)
          .pollInterval(Demos.POLL)
          .untilAsserted(
              () -> assertThat(up.client().pods().inNamespace(NS).list().getItems()).isEmpty());
    }
  }
}
