package io.jdra.allocator;

import static io.jdra.allocator.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pools available to all nodes alike (allNodes slices, shared counters) look the same from every
 * node without slices of its own; one allocator answers for all of them, and what each node gets
 * must be what it would get from an allocator of its own. Counters left in a pool follow each
 * allocator's allocated state, though the index is shared.
 */
class NodeIndependentPoolsTest {
  final DeviceClassLister classes = DeviceClassLister.of(List.of(deviceClass(CLASS)));
  final ResourceSlice counters = counterSlice("counters", "p", counterSet("gpu", "mem", "8Gi"));

  ResourceSlice partitions(Device... extra) {
    List<Device> devices =
        new ArrayList<>(
            List.of(
                consumes(device("whole"), "gpu", "mem", "8Gi"),
                consumes(device("half-0"), "gpu", "mem", "4Gi"),
                consumes(device("half-1"), "gpu", "mem", "4Gi")));
    devices.addAll(List.of(extra));
    return slice("devices", null, DRIVER, "p", 1, 2, devices.toArray(Device[]::new));
  }

  final List<Node> nodes = List.of(node("node-a"), node("node-b"), node("node-c"));
  final List<ResourceClaim> twoHalves =
      List.of(claim("a", request("r", 1)), claim("b", request("r", 1)));

  @Test
  void everyNodeGetsWhatAnAllocatorOfItsOwnWouldGiveIt() throws Exception {
    List<ResourceSlice> slices = List.of(counters, partitions());
    AllocatedState state = AllocatedState.builder().device(DRIVER, "p", "half-0").build();
    Allocator shared =
        Allocator.create(state, classes, SliceIndex.of(AllocatorFeatures.all(), slices));

    for (Node n : nodes) {
      Allocator own = Allocator.create(AllocatorFeatures.all(), state, classes, slices);
      List<ResourceClaim> one = twoHalves.subList(0, 1);
      AllocationOutcome got = shared.allocate(n, one, Deadline.none());
      AllocationOutcome alone = own.allocate(n, one, Deadline.none());

      List<AllocationResult> results = ((AllocationOutcome.Allocated) got).results();
      assertThat(results).isEqualTo(((AllocationOutcome.Allocated) alone).results());
      assertThat(picks(results.get(0))).containsExactly("r=p/half-1");
      assertThat(results.get(0).getNodeSelector()).isNull();
    }
  }

  @Test
  void anExplanationNamesTheNodeItIsReadFor() throws Exception {
    List<ResourceSlice> slices = List.of(counters, partitions());
    AllocatedState state = AllocatedState.builder().device(DRIVER, "p", "half-0").build();
    Allocator shared =
        Allocator.create(state, classes, SliceIndex.of(AllocatorFeatures.all(), slices));

    for (Node n : nodes) {
      AllocationOutcome got = shared.allocate(n, twoHalves, Deadline.none());
      Explanation e = ((AllocationOutcome.Unschedulable) got).explanation();
      assertThat(e.node()).isEqualTo(n.getMetadata().getName());
      assertThat(e.render()).contains("counter");
    }
  }

  @Test
  void devicesBoundToTheirNodeAreStillAllocatedPerNode() throws Exception {
    Device bound = device("bound");
    bound.setBindsToNode(true);
    List<ResourceSlice> slices = List.of(slice("local", null, DRIVER, "q", 1, 1, bound));
    Allocator shared =
        Allocator.create(
            AllocatedState.empty(), classes, SliceIndex.of(AllocatorFeatures.all(), slices));

    for (Node n : nodes) {
      AllocationOutcome got =
          shared.allocate(n, List.of(claim("c", request("r", 1))), Deadline.none());
      AllocationResult r = ((AllocationOutcome.Allocated) got).results().get(0);
      assertThat(r.getNodeSelector().toString()).contains(n.getMetadata().getName());
    }
  }

  @Test
  void countersLeftFollowEachAllocatorsAllocatedState() throws Exception {
    SliceIndex index = SliceIndex.of(AllocatorFeatures.all(), List.of(counters, partitions()));
    AllocatedState wholeTaken = AllocatedState.builder().device(DRIVER, "p", "whole").build();
    AllocatedState halfTaken = AllocatedState.builder().device(DRIVER, "p", "half-0").build();
    List<ResourceClaim> one = List.of(claim("c", request("r", 1)));

    for (int round = 0; round < 2; round++) {
      assertThat(
              Allocator.create(wholeTaken, classes, index)
                  .allocate(nodes.get(0), one, Deadline.none()))
          .isInstanceOf(AllocationOutcome.Unschedulable.class);
      assertThat(picks(first(Allocator.create(halfTaken, classes, index), one)))
          .containsExactly("r=p/half-1");
      assertThat(picks(first(Allocator.create(AllocatedState.empty(), classes, index), one)))
          .containsExactly("r=p/whole");
    }
  }

  AllocationResult first(Allocator a, List<ResourceClaim> claims) throws Exception {
    return ((AllocationOutcome.Allocated) a.allocate(nodes.get(1), claims, Deadline.none()))
        .results()
        .get(0);
  }
}
