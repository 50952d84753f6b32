package io.jdra.allocator;

import static io.jdra.allocator.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A {@link NodeCache} only spares the lookup of a node's view: every allocation with one gives what
 * the same allocation without it gives, while slice indexes, node objects and allocated devices
 * change between calls.
 */
class NodeCacheTest {
  final DeviceClassLister classes =
      DeviceClassLister.of(List.of(deviceClass(CLASS, "device.driver == \"" + DRIVER + "\"")));

  /** The outcome as comparable text: picks per claim, or the rendered explanation. */
  static String outcome(AllocationOutcome o) {
    if (o instanceof AllocationOutcome.Allocated a) {
      List<List<String>> out = new ArrayList<>();
      for (AllocationResult r : a.results()) {
        out.add(picks(r));
      }
      return "allocated " + out;
    }
    return "unschedulable " + ((AllocationOutcome.Unschedulable) o).explanation().render();
  }

  String allocate(SliceIndex index, AllocatedState state, Node node, NodeCache cache)
      throws AllocationException {
    List<ResourceClaim> claims = List.of(claim("c", request("r", 2)));
    Allocator allocator = Allocator.create(state, classes, index);
    return outcome(
        cache == null
            ? allocator.allocate(node, claims, Deadline.none())
            : allocator.allocate(node, cache, claims, Deadline.none()));
  }

  static ResourceSlice own(String name, String node, String... devices) {
    io.fabric8.kubernetes.api.model.resource.v1.Device[] devs =
        new io.fabric8.kubernetes.api.model.resource.v1.Device[devices.length];
    for (int i = 0; i < devices.length; i++) {
      devs[i] = device(devices[i]);
    }
    return slice(name, node, DRIVER, node, 1, 1, devs);
  }

  static ResourceSlice everywhere(String name, String... devices) {
    ResourceSlice s = own(name, "shared-pool", devices);
    s.getSpec().setNodeName(null);
    s.getSpec().setAllNodes(true);
    return s;
  }

  @Test
  void cachedViewsGiveTheOutcomesOfTheLookupByName() throws Exception {
    SliceIndex first =
        SliceIndex.of(
            AllocatorFeatures.all(),
            List.of(own("s1", "node-1", "a", "b", "c"), everywhere("sh", "x", "y")));
    // node-1 loses a device; node-2 gets slices of its own instead of the shared ones.
    SliceIndex second =
        SliceIndex.of(
            AllocatorFeatures.all(),
            List.of(
                own("s1", "node-1", "a", "c"),
                own("s2", "node-2", "p", "q"),
                everywhere("sh", "x", "y")));
    SliceIndex third =
        SliceIndex.of(
            AllocatorFeatures.all(), List.of(own("s1", "node-1", "a"), everywhere("sh", "y")));
    AllocatedState none = AllocatedState.empty();
    AllocatedState aTaken = AllocatedState.builder().device(DRIVER, "node-1", "a").build();
    AllocatedState xTaken = AllocatedState.builder().device(DRIVER, "shared-pool", "x").build();

    NodeCache cache1 = new NodeCache();
    NodeCache cache2 = new NodeCache();
    Node node1 = node("node-1");
    Node node2 = node("node-2");
    List<String> seen = new ArrayList<>();
    int step = 0;
    for (SliceIndex index : List.of(first, second, first, third, second)) {
      for (AllocatedState state : List.of(none, aTaken, xTaken)) {
        // A new node object now and then, as the informer delivers after a label change.
        if (step++ % 4 == 3) {
          node1 = node("node-1", "zone", "z" + step);
          node2 = node("node-2", "zone", "z" + step);
        }
        String want1 = allocate(index, state, node1, null);
        String want2 = allocate(index, state, node2, null);
        assertThat(allocate(index, state, node1, cache1))
            .as("node-1, step %d", step)
            .isEqualTo(want1);
        assertThat(allocate(index, state, node2, cache2))
            .as("node-2, step %d", step)
            .isEqualTo(want2);
        seen.add(want1);
        seen.add(want2);
      }
    }
    // The inputs above do reach different outcomes on both nodes (own and shared pools, fits and
    // does not fit), so the comparison covers each kind of view.
    assertThat(seen)
        .contains(
            "allocated [[r=node-1/a, r=node-1/b]]",
            "allocated [[r=node-1/b, r=node-1/c]]",
            "allocated [[r=node-2/p, r=node-2/q]]",
            "allocated [[r=shared-pool/x, r=shared-pool/y]]");
    assertThat(seen).anyMatch(s -> s.startsWith("unschedulable"));
  }

  @Test
  void aNodeObjectWithOtherLabelsIsNotServedTheOldView() throws Exception {
    ResourceSlice byLabel = withSelector(own("s", "node-1", "net"), labelSelector("zone", "a"));
    SliceIndex index = SliceIndex.of(AllocatorFeatures.all(), List.of(byLabel));
    NodeCache cache = new NodeCache();
    List<ResourceClaim> claims = List.of(claim("c", request("r", 1)));
    Allocator allocator = Allocator.create(AllocatedState.empty(), classes, index);

    AllocationOutcome inZoneB =
        allocator.allocate(node("node-1", "zone", "b"), cache, claims, Deadline.none());
    AllocationOutcome inZoneA =
        allocator.allocate(node("node-1", "zone", "a"), cache, claims, Deadline.none());

    assertThat(inZoneB.allocated()).isFalse();
    assertThat(inZoneA.allocated()).isTrue();
  }
}
