package io.jdra.scheduler.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.Resource;
import io.jdra.scheduler.framework.Status;
import io.jdra.testing.objects.Make;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * DRANodeAllocatableResources (KEP 5517) as the native-resource-request demo uses it: a NUMA-node
 * device whose consumable {@code cpu.example.com/cpu} capacity maps onto the node's cpu; a claim
 * with two 1-cpu requests takes 2 cpu of the node, which Filter checks, assume counts and PreBind
 * writes into the pod's status.
 */
class NodeAllocatableResourcesTest {
  static final Ctx CTX = Ctx.forTest(new FakeClock());
  static final String DRIVER = "cpu.example.com";
  static final String CAPACITY = DRIVER + "/cpu";

  final DraManager dra = new DraManager(AllocatorFeatures.defaults(), true);
  final DynamicResourcesTest.FakeWriter writer = new DynamicResourcesTest.FakeWriter(dra);

  DynamicResources plugin(boolean gate) {
    return DynamicResources.builder(dra, DynamicResourcesArgs.defaults())
        .nanoClock(() -> 0L)
        .writer(writer)
        .nodeAllocatable(gate)
        .build();
  }

  void numaNode(String node, String cpus) {
    Device d =
        new DeviceBuilder()
            .withName("numa-0")
            .withAllowMultipleAllocations(true)
            .withCapacity(Map.of(CAPACITY, new DeviceCapacity(null, new Quantity(cpus))))
            .build();
    d.setAdditionalProperty(
        NodeAllocatableClaims.MAPPINGS, Map.of("cpu", Map.of("capacityKey", CAPACITY)));
    dra.classChanged(Make.deviceClass(DRIVER).driver(DRIVER).obj());
    dra.sliceChanged(Make.slice(node + "-cpu", node, DRIVER).pool(node, 1, 1).devices(d).obj());
  }

  static DeviceRequest oneCpu(String name) {
    return new DeviceRequestBuilder()
        .withName(name)
        .withNewExactly()
        .withDeviceClassName(DRIVER)
        .withNewCapacity()
        .addToRequests(CAPACITY, new Quantity("1"))
        .endCapacity()
        .endExactly()
        .build();
  }

  PodInfo pod(String containerCpu) {
    dra.claimChanged(
        Make.claim("pod0-cpus-abc")
            .namespace("ns")
            .uid("c-1")
            .resourceVersion("1")
            .requests(oneCpu("cpu0"), oneCpu("cpu1"))
            .obj());
    var pod =
        Make.pod("pod0")
            .namespace("ns")
            .uid("uid-pod0")
            .claim("cpus", "pod0-cpus-abc")
            .container("ctr0", "cpus")
            .obj();
    if (containerCpu != null) {
      pod.getSpec()
          .getContainers()
          .get(0)
          .getResources()
          .setRequests(Map.of("cpu", new Quantity(containerCpu)));
    }
    return new PodInfo(pod);
  }

  static NodeInfo node(String cpu) {
    return NodeInfo.of(
        Make.node("node-1")
            .labels("kubernetes.io/hostname", "node-1")
            .allocatable("cpu", cpu, "memory", "32Gi", "pods", "110")
            .obj());
  }

  @Test
  void bothRequestsShareTheNumaNodeAndTakeTwoCpusOfTheNode() {
    numaNode("node-1", "2");
    DynamicResources pl = plugin(true);
    CycleState st = new CycleState();
    PodInfo p = pod(null);
    assertThat(Status.ok(pl.preFilter(CTX, st, p, List.of()).status())).isTrue();
    assertThat(Status.ok(pl.filter(CTX, st, p, node("8")))).isTrue();

    var results = pl.allocations(st).get("node-1").get(0).getDevices().getResults();
    assertThat(results).extracting(r -> r.getDevice()).containsExactly("numa-0", "numa-0");
    assertThat(results).extracting(r -> r.getShareID()).doesNotHaveDuplicates();
    List<NodeAllocatableClaims.ClaimStatus> na =
        DynamicResources.nodeAllocatableStatuses(st, "node-1");
    assertThat(na).hasSize(1);
    assertThat(na.get(0).toJson())
        .isEqualTo(
            Map.of(
                "resourceClaimName", "pod0-cpus-abc",
                "containers", List.of("ctr0"),
                "resources", Map.of("cpu", "2")));

    assertThat(Status.ok(pl.reserve(CTX, st, p, "node-1"))).isTrue();
    assertThat(Status.ok(pl.preBind(CTX, st, p, "node-1"))).isTrue();
    assertThat(writer.calls)
        .containsExactly(
            "bind pod0-cpus-abc",
            "nodeAllocatableResourceClaimStatuses pod0-cpus-abc[ctr0]{cpu=2}");
  }

  /** The claim's 2 cpu plus the container's own 7 do not fit a node of 8: upstream's reason. */
  @Test
  void claimAndContainerRequestsTogetherMustFitTheNode() {
    numaNode("node-1", "2");
    DynamicResources pl = plugin(true);
    CycleState st = new CycleState();
    PodInfo p = pod("7");
    pl.preFilter(CTX, st, p, List.of());
    Status s = pl.filter(CTX, st, p, node("8"));
    assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
    assertThat(s.message()).isEqualTo("Insufficient cpu");
  }

  /** With the gate off nothing is counted or written: the device's mapping is ignored. */
  @Test
  void gateOffCountsNothing() {
    numaNode("node-1", "2");
    DynamicResources pl = plugin(false);
    CycleState st = new CycleState();
    PodInfo p = pod("7");
    pl.preFilter(CTX, st, p, List.of());
    assertThat(Status.ok(pl.filter(CTX, st, p, node("8")))).isTrue();
    assertThat(DynamicResources.nodeAllocatableStatuses(st, "node-1")).isEmpty();
  }

  /** A pod with the status counts its claims' amounts as requests (NodeResourcesFit, assume). */
  @Test
  void podStatusAmountsAreRequests() {
    PodInfo p = pod(null);
    var withStatus =
        new io.fabric8.kubernetes.api.model.PodBuilder(p.pod())
            .editOrNewStatus()
            .withNodeAllocatableResourceClaimStatuses(
                new NodeAllocatableClaims.ClaimStatus(
                        "pod0-cpus-abc",
                        List.of("ctr0"),
                        Map.of("cpu", io.jdra.api.quantity.Quantity.parse("2")))
                    .toFabric8())
            .endStatus()
            .build();
    assertThat(new PodInfo(withStatus).request().milliCpu()).isEqualTo(2000);
    assertThat(p.request()).isEqualTo(Resource.ZERO);
  }
}
