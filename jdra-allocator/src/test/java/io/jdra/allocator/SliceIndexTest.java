package io.jdra.allocator;

import static io.jdra.allocator.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One index serves allocators of many scheduling cycles: what it remembers about nodes and selector
 * results never leaks one cycle's allocated devices, claims or node into another.
 */
class SliceIndexTest {
  final SliceIndex index =
      SliceIndex.of(
          AllocatorFeatures.all(),
          List.of(slice("s", device("a", "model", "x"), device("b", "model", "y"))));
  final DeviceClassLister classes =
      DeviceClassLister.of(
          List.of(deviceClass(CLASS, "device.attributes[\"driver.example.com\"].model != \"\"")));

  AllocationOutcome allocate(AllocatedState state, Node node, String... selectors)
      throws AllocationException {
    return Allocator.create(state, classes, index)
        .allocate(node, List.of(claim("c", request("r", 1, selectors))), Deadline.none());
  }

  @Test
  void eachAllocatorSeesItsOwnAllocatedDevices() throws Exception {
    Node node = node(NODE);
    AllocationOutcome free = allocate(AllocatedState.empty(), node);
    AllocationOutcome aTaken =
        allocate(AllocatedState.builder().device(DRIVER, NODE, "a").build(), node);
    AllocationOutcome bothTaken =
        allocate(
            AllocatedState.builder().device(DRIVER, NODE, "a").device(DRIVER, NODE, "b").build(),
            node);

    assertThat(picks(((AllocationOutcome.Allocated) free).results().get(0)))
        .containsExactly("r=" + NODE + "/a");
    assertThat(picks(((AllocationOutcome.Allocated) aTaken).results().get(0)))
        .containsExactly("r=" + NODE + "/b");
    assertThat(((AllocationOutcome.Unschedulable) bothTaken).explanation().render())
        .contains("already allocated");
  }

  /**
   * Snapshots of one tracker share their base map, and the allocator reuses a pool's device view
   * while the pool stays in that base; a snapshot whose overlay holds the pool, an older one
   * without it and one after the base was rebuilt, asked in any order, each see their own devices
   * in use.
   */
  @Test
  void snapshotsSharingABaseEachSeeTheirOwnDevicesInUse() throws Exception {
    Node node = node(NODE);
    AllocatedDevices tracker = new AllocatedDevices();
    AllocatedState none = tracker.snapshot();
    tracker.add(taken(NODE, "a"), false);
    AllocatedState aTaken = tracker.snapshot();
    // Enough other pools change that the next snapshot rebuilds its base with "a" in it.
    for (int i = 0; i < 40; i++) {
      tracker.add(taken("other-" + i, "x"), false);
      tracker.snapshot();
    }
    AllocatedState rebuilt = tracker.snapshot();
    tracker.remove(taken(NODE, "a"), false);
    AllocatedState aFreed = tracker.snapshot();

    for (AllocatedState state : List.of(none, aTaken, none, rebuilt, aFreed, rebuilt, none)) {
      boolean taken = state == aTaken || state == rebuilt;
      assertThat(picks(((AllocationOutcome.Allocated) allocate(state, node)).results().get(0)))
          .as("a taken: %s", taken)
          .containsExactly("r=" + NODE + "/" + (taken ? "b" : "a"));
    }
  }

  static DeviceRequestAllocationResult taken(String pool, String device) {
    DeviceRequestAllocationResult r = new DeviceRequestAllocationResult();
    r.setDriver(DRIVER);
    r.setPool(pool);
    r.setDevice(device);
    r.setRequest("r");
    return r;
  }

  @Test
  void rememberedSelectorResultsBelongToTheirExpression() throws Exception {
    Node node = node(NODE);
    String wantsY = "device.attributes[\"driver.example.com\"].model == \"y\"";
    String wantsX = "device.attributes[\"driver.example.com\"].model == \"x\"";
    assertThat(
            picks(
                ((AllocationOutcome.Allocated) allocate(AllocatedState.empty(), node, wantsY))
                    .results()
                    .get(0)))
        .containsExactly("r=" + NODE + "/b");
    assertThat(
            picks(
                ((AllocationOutcome.Allocated) allocate(AllocatedState.empty(), node, wantsX))
                    .results()
                    .get(0)))
        .containsExactly("r=" + NODE + "/a");
  }

  @Test
  void manyOneOffExpressionsAreStillEvaluatedRightOnceNoMoreAreRemembered() throws Exception {
    Node node = node(NODE);
    for (int i = 0; i < 40; i++) {
      String model = i % 2 == 0 ? "x" : "y";
      String expr =
          "device.attributes[\"driver.example.com\"].model == \"" + model + "\" && " + i + " >= 0";
      assertThat(
              picks(
                  ((AllocationOutcome.Allocated) allocate(AllocatedState.empty(), node, expr))
                      .results()
                      .get(0)))
          .as("expression %d", i)
          .containsExactly("r=" + NODE + (i % 2 == 0 ? "/a" : "/b"));
    }
  }

  @Test
  void aRememberedRuntimeErrorFailsEveryAllocationTheSameWay() {
    Node node = node(NODE);
    String missing = "device.attributes[\"driver.example.com\"].missing == 1";
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> allocate(AllocatedState.empty(), node, missing))
          .isInstanceOf(AllocationException.class)
          .hasMessage("claim default/c: selector #0: CEL runtime error: no such key: missing");
    }
  }

  @Test
  void aNodeReplacedWithNewLabelsIsGatheredAgain() throws Exception {
    ResourceSlice byLabel =
        withSelector(slice("s", device("net", "model", "n")), labelSelector("zone", "a"));
    SliceIndex shared = SliceIndex.of(AllocatorFeatures.all(), List.of(byLabel));
    Allocator allocator = Allocator.create(AllocatedState.empty(), classes, shared);

    AllocationOutcome inZoneB =
        allocator.allocate(
            node(NODE, "zone", "b"), List.of(claim("c", request("r", 1))), Deadline.none());
    AllocationOutcome inZoneA =
        allocator.allocate(
            node(NODE, "zone", "a"), List.of(claim("c", request("r", 1))), Deadline.none());

    assertThat(inZoneB.allocated()).isFalse();
    assertThat(inZoneA.allocated()).isTrue();
  }
}
