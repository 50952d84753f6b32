package io.jdra.allocator;

import static io.jdra.allocator.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One allocator validates a claim list once and reuses that for every node it is asked about with
 * the same claims (the scheduler's Filter); another list is validated anew, and an error that does
 * not depend on the node stays behind the errors a node raises earlier in upstream's order.
 */
class PreparedClaimsTest {
  private static final String NODE_2 = "node-2";

  private final List<ResourceSlice> slices =
      List.of(
          slice("s1", NODE, DRIVER, NODE, 1, 1, device("a-0"), device("a-1")),
          slice("s2", NODE_2, DRIVER, NODE_2, 1, 1, device("b-0"), device("b-1")),
          // node-3's pool is incomplete: one of its two slices is missing.
          slice("s3", "node-3", DRIVER, "node-3", 1, 2, device("c-0")));

  private Allocator allocator() {
    return Allocator.create(
        AllocatorFeatures.all(),
        AllocatedState.empty(),
        DeviceClassLister.of(List.of(deviceClass(CLASS))),
        slices);
  }

  private static List<List<String>> picks(AllocationOutcome outcome) {
    assertThat(outcome).isInstanceOf(AllocationOutcome.Allocated.class);
    return ((AllocationOutcome.Allocated) outcome)
        .results().stream().map(AllocationResult.class::cast).map(Fixtures::picks).toList();
  }

  @Test
  void sameClaimsOnAnotherNodeUseThatNodesDevices() throws Exception {
    Allocator a = allocator();
    List<ResourceClaim> claims = List.of(claim("c", request("r", 2)));
    assertThat(picks(a.allocate(node(NODE), claims, Deadline.none())))
        .containsExactly(List.of("r=node-1/a-0", "r=node-1/a-1"));
    assertThat(picks(a.allocate(node(NODE_2), claims, Deadline.none())))
        .containsExactly(List.of("r=node-2/b-0", "r=node-2/b-1"));
  }

  @Test
  void anotherClaimListIsValidatedAnew() throws Exception {
    Allocator a = allocator();
    assertThat(picks(a.allocate(node(NODE), List.of(claim("c", request("r", 1))), Deadline.none())))
        .containsExactly(List.of("r=node-1/a-0"));
    // A new claim object with the same name but another count: not the earlier validation.
    assertThat(picks(a.allocate(node(NODE), List.of(claim("c", request("r", 2))), Deadline.none())))
        .containsExactly(List.of("r=node-1/a-0", "r=node-1/a-1"));
    // A class that does not exist fails, although the last list's class did.
    List<ResourceClaim> missing = List.of(claim("c", request("r", "no-such-class", 1)));
    assertThatThrownBy(() -> a.allocate(node(NODE), missing, Deadline.none()))
        .isInstanceOf(AllocationException.class)
        .hasMessage(
            "claim default/c, request r: could not retrieve device class no-such-class:"
                + " deviceclass.resource.k8s.io \"no-such-class\" not found");
    // And back to a good list.
    assertThat(
            picks(a.allocate(node(NODE_2), List.of(claim("d", request("r", 1))), Deadline.none())))
        .containsExactly(List.of("r=node-2/b-0"));
  }

  @Test
  void nodeErrorsComeBeforeLaterErrorsOfNoNode() throws Exception {
    Allocator a = allocator();
    // Request "all" needs complete pools (node-3's is not); request "x" names a missing class.
    List<ResourceClaim> claims = List.of(claim("c", all("all"), request("x", "no-such-class", 1)));
    assertThatThrownBy(() -> a.allocate(node("node-3"), claims, Deadline.none()))
        .isInstanceOf(AllocationException.class)
        .hasMessage(
            "claim default/c, request all: asks for all devices, but resource pool"
                + " driver.example.com/node-3 is currently being updated");
    for (String n : List.of(NODE, NODE_2, "node-3")) {
      String expected =
          n.equals("node-3")
              ? "claim default/c, request all: asks for all devices, but resource pool"
                  + " driver.example.com/node-3 is currently being updated"
              : "claim default/c, request x: could not retrieve device class no-such-class:"
                  + " deviceclass.resource.k8s.io \"no-such-class\" not found";
      assertThatThrownBy(() -> a.allocate(node(n), claims, Deadline.none()))
          .isInstanceOf(AllocationException.class)
          .hasMessage(expected);
    }
  }

  @Test
  void allRequestsCountTheNodesDevicesAgainstTheClaimLimit() throws Exception {
    Allocator a = allocator();
    List<ResourceClaim> claims = List.of(claim("c", all("all"), request("more", 31)));
    // node-1 has 2 devices: 2 + 31 exceeds 32; the same claims on a node without devices fit
    // the limit and are just unschedulable.
    assertThatThrownBy(() -> a.allocate(node(NODE), claims, Deadline.none()))
        .isInstanceOf(AllocationException.class)
        .hasMessage(
            "claim default/c: number of requested devices 33 exceeds the claim limit of 32");
    assertThat(a.allocate(node("node-4"), claims, Deadline.none()))
        .isInstanceOf(AllocationOutcome.Unschedulable.class);
  }

  @Test
  void manyDistinctSelectorsOnOneSliceIndexEachSelectTheirOwnDevices() throws Exception {
    // Views keep the results of 64 selector lists in numbered slots; lists beyond that are
    // evaluated without being kept. Every list must get its own results either way.
    SliceIndex index =
        SliceIndex.of(
            AllocatorFeatures.all(),
            List.of(slice("s1", device("a-0", "index", 0L), device("a-1", "index", 1L))));
    DeviceClassLister classes = DeviceClassLister.of(List.of(deviceClass(CLASS)));
    for (int i = 0; i < 80; i++) {
      long wanted = i % 2;
      String expr =
          "device.attributes[\"driver.example.com\"].index == " + wanted + " && " + i + " >= 0";
      Allocator a = Allocator.create(AllocatedState.empty(), classes, index);
      assertThat(
              picks(
                  a.allocate(
                      node(NODE), List.of(claim("c", request("r", 1, expr))), Deadline.none())))
          .as("selector %d", i)
          .containsExactly(List.of("r=node-1/a-" + wanted));
    }
  }
}
