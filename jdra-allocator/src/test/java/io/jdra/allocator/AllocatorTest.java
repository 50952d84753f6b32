package io.jdra.allocator;

import static io.jdra.allocator.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Table-driven allocator cases, each written from the DRA semantics. */
class AllocatorTest {
  static final String UNSCHEDULABLE = "<unschedulable>";

  /**
   * The errors upstream wraps in ErrFailedAllocationOnNode: a scheduler goes on with other nodes.
   * Every other error of the table must fail the whole attempt.
   */
  static final Set<String> NODE_LOCAL_ERRORS = Set.of("invalid resource pools were encountered");

  /** One case: inputs and either picks per claim, an error message or {@link #UNSCHEDULABLE}. */
  record Case(
      AllocatorFeatures features,
      List<DeviceClass> classes,
      List<ResourceSlice> slices,
      AllocatedState state,
      Node node,
      List<ResourceClaim> claims,
      List<List<String>> picks,
      String error) {

    static Case of(List<ResourceSlice> slices, ResourceClaim... claims) {
      return new Case(
          AllocatorFeatures.all(),
          List.of(deviceClass(CLASS)),
          slices,
          AllocatedState.empty(),
          Fixtures.node(NODE),
          List.of(claims),
          null,
          null);
    }

    Case features(AllocatorFeatures f) {
      return new Case(f, classes, slices, state, node, claims, picks, error);
    }

    Case classes(DeviceClass... c) {
      return new Case(features, List.of(c), slices, state, node, claims, picks, error);
    }

    Case state(AllocatedState s) {
      return new Case(features, classes, slices, s, node, claims, picks, error);
    }

    Case node(Node n) {
      return new Case(features, classes, slices, state, n, claims, picks, error);
    }

    @SafeVarargs
    final Case expect(List<String>... perClaim) {
      return new Case(features, classes, slices, state, node, claims, List.of(perClaim), null);
    }

    Case fails(String message) {
      return new Case(features, classes, slices, state, node, claims, null, message);
    }
  }

  static Arguments named(String name, Case c) {
    return Arguments.of(name, c);
  }

  static Stream<Arguments> cases() {
    List<Arguments> cs = new ArrayList<>();
    ResourceSlice twoGpus = slice("s1", device("gpu-0"), device("gpu-1"));
    cs.add(
        named(
            "one device",
            Case.of(List.of(twoGpus), claim("c", request("r", 1)))
                .expect(List.of("r=node-1/gpu-0"))));
    cs.add(
        named(
            "count two",
            Case.of(List.of(twoGpus), claim("c", request("r", 2)))
                .expect(List.of("r=node-1/gpu-0", "r=node-1/gpu-1"))));
    cs.add(
        named(
            "count one higher than devices",
            Case.of(List.of(twoGpus), claim("c", request("r", 3))).fails(UNSCHEDULABLE)));
    cs.add(
        named(
            "two claims get different devices",
            Case.of(List.of(twoGpus), claim("a", request("r", 1)), claim("b", request("r", 1)))
                .expect(List.of("r=node-1/gpu-0"), List.of("r=node-1/gpu-1"))));
    cs.add(
        named(
            "allocated device is skipped",
            Case.of(List.of(twoGpus), claim("c", request("r", 1)))
                .state(AllocatedState.builder().device(DRIVER, NODE, "gpu-0").build())
                .expect(List.of("r=node-1/gpu-1"))));
    cs.add(
        named(
            "request selector",
            Case.of(
                    List.of(slice("s1", device("a", "model", "x"), device("b", "model", "y"))),
                    claim(
                        "c",
                        request(
                            "r", 1, "device.attributes[\"driver.example.com\"].model == \"y\"")))
                .expect(List.of("r=node-1/b"))));
    cs.add(
        named(
            "class selector",
            Case.of(
                    List.of(slice("s1", device("a", "model", "x"), device("b", "model", "y"))),
                    claim("c", request("r", 1)))
                .classes(
                    deviceClass(CLASS, "device.attributes[\"driver.example.com\"].model == \"y\""))
                .expect(List.of("r=node-1/b"))));
    cs.add(
        named(
            "unknown class",
            Case.of(List.of(twoGpus), claim("c", request("r", "nope", 1)))
                .fails(
                    "claim default/c, request r: could not retrieve device class nope:"
                        + " deviceclass.resource.k8s.io \"nope\" not found")));
    cs.add(
        named(
            "missing class name",
            Case.of(List.of(twoGpus), claim("c", request("r", "", 1)))
                .fails(
                    "claim default/c, request r: missing device class name (unsupported request type?)")));
    cs.add(
        named(
            "CEL runtime error",
            Case.of(
                    List.of(twoGpus),
                    claim(
                        "c",
                        request("r", 1, "device.attributes[\"driver.example.com\"].missing == 1")))
                .fails("claim default/c: selector #0: CEL runtime error: no such key: missing")));
    cs.add(
        named(
            "class CEL compile error",
            Case.of(List.of(twoGpus), claim("c", request("r", 1)))
                .classes(deviceClass(CLASS, "x("))
                .fails(
                    "class gpu: selector #0: CEL compile error: compilation failed: ERROR:"
                        + " <input>:1:3: Syntax error: mismatched input '<EOF>' expecting {'[', '{',"
                        + " '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT,"
                        + " NUM_UINT, STRING, BYTES, IDENTIFIER}\n | x(\n | ..^")));
    cs.add(
        named(
            "too many devices",
            Case.of(List.of(twoGpus), claim("c", request("r", 33)))
                .fails(
                    "claim default/c: number of requested devices 33 exceeds the claim limit of 32")));
    cs.add(
        named(
            "pools sorted by driver then name, slices by name",
            Case.of(
                    List.of(
                        slice("z", NODE, "b.example.com", "p1", 1, 1, device("d1")),
                        slice("y", NODE, DRIVER, "p2", 1, 1, device("d2")),
                        slice("x2", NODE, DRIVER, "p1", 1, 2, device("d4")),
                        slice("x1", NODE, DRIVER, "p1", 1, 2, device("d3"))),
                    claim("c", request("r", 4)))
                .expect(List.of("r=p1/d1", "r=p1/d3", "r=p1/d4", "r=p2/d2"))));
    cs.add(
        named(
            "highest generation wins",
            Case.of(
                    List.of(
                        slice("old", NODE, DRIVER, "p", 1, 1, device("old-0")),
                        slice("new", NODE, DRIVER, "p", 2, 1, device("new-0"))),
                    claim("c", request("r", 1)))
                .expect(List.of("r=p/new-0"))));
    cs.add(
        named(
            "incomplete pool is not used",
            Case.of(
                    List.of(slice("s", NODE, DRIVER, "p", 1, 2, device("d0"))),
                    claim("c", request("r", 1)))
                .fails(UNSCHEDULABLE)));
    cs.add(
        named(
            "other node's slice is not used",
            Case.of(
                    List.of(slice("s", "node-2", DRIVER, "node-2", 1, 1, device("d0"))),
                    claim("c", request("r", 1)))
                .fails(UNSCHEDULABLE)));
    cs.add(
        named(
            "node selector slice",
            Case.of(
                    List.of(
                        withSelector(
                            slice("s", NODE, DRIVER, "net", 1, 1, device("d0")),
                            labelSelector("zone", "a"))),
                    claim("c", request("r", 1)))
                .node(node(NODE, "zone", "a"))
                .expect(List.of("r=net/d0"))));
    cs.add(
        named(
            "a node selector that does not parse fails the whole attempt",
            Case.of(
                    List.of(
                        withSelector(
                            slice("s", NODE, DRIVER, "net", 1, 1, device("d0")),
                            labelSelector("zone"))),
                    claim("c", request("r", 1)))
                .node(node(NODE, "zone", "a"))
                .fails(
                    "gather pool information: failed to perform node selection for slice s:"
                        + " failed to parse node selector:"
                        + " nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: []:"
                        + " for 'in', 'notin' operators, values set can't be empty")));
    cs.add(
        named(
            "duplicate device names make the pool invalid",
            Case.of(
                    List.of(
                        slice("s1", NODE, DRIVER, "p", 1, 2, device("d0")),
                        slice("s2", NODE, DRIVER, "p", 1, 2, device("d0"))),
                    claim("c", request("r", 1)))
                .fails("invalid resource pools were encountered")));
    cs.add(
        named(
            "invalid pool is skipped when another pool fits",
            Case.of(
                    List.of(
                        slice("s1", NODE, DRIVER, "p", 1, 2, device("d0")),
                        slice("s2", NODE, DRIVER, "p", 1, 2, device("d0")),
                        slice("s3", NODE, DRIVER, "q", 1, 1, device("d1"))),
                    claim("c", request("r", 1)))
                .expect(List.of("r=q/d1"))));
    cs.add(
        named(
            "all mode",
            Case.of(List.of(twoGpus), claim("c", all("r")))
                .expect(List.of("r=node-1/gpu-0", "r=node-1/gpu-1"))));
    cs.add(
        named(
            "all mode without devices",
            Case.of(List.of(slice("s1")), claim("c", all("r"))).fails(UNSCHEDULABLE)));
    cs.add(
        named(
            "all mode with incomplete pool",
            Case.of(
                    List.of(slice("s", NODE, DRIVER, "p", 1, 2, device("d0"))),
                    claim("c", all("r")))
                .fails(
                    "claim default/c, request r: asks for all devices, but resource pool"
                        + " driver.example.com/p is currently being updated")));
    cs.add(
        named(
            "all mode with an allocated device",
            Case.of(List.of(twoGpus), claim("c", all("r")))
                .state(AllocatedState.builder().device(DRIVER, NODE, "gpu-0").build())
                .fails(UNSCHEDULABLE)));
    cs.add(
        named(
            "matchAttribute",
            Case.of(
                    List.of(
                        slice(
                            "s",
                            device("a0", "numa", 0),
                            device("b1", "numa", 1),
                            device("c1", "numa", 1))),
                    constrain(
                        claim("c", request("x", 1), request("y", 1)),
                        match("driver.example.com/numa")))
                .expect(List.of("x=node-1/b1", "y=node-1/c1"))));
    cs.add(
        named(
            "distinctAttribute",
            Case.of(
                    List.of(
                        slice(
                            "s",
                            device("a0", "numa", 0),
                            device("b0", "numa", 0),
                            device("c1", "numa", 1))),
                    constrain(claim("c", request("x", 2)), distinct("driver.example.com/numa")))
                .expect(List.of("x=node-1/a0", "x=node-1/c1"))));
    cs.add(
        named(
            "matchAttribute only for listed requests",
            Case.of(
                    List.of(
                        slice(
                            "s",
                            device("a0", "numa", 0),
                            device("b1", "numa", 1),
                            device("c1", "numa", 1))),
                    constrain(
                        claim("c", request("x", 1), request("y", 1), request("z", 1)),
                        match("driver.example.com/numa", "y", "z")))
                .expect(List.of("x=node-1/a0", "y=node-1/b1", "z=node-1/c1"))));
    cs.add(
        named(
            "list attributes match on intersection",
            Case.of(
                    List.of(
                        slice(
                            "s",
                            device("a", "pcie", List.of("r1", "r2")),
                            device("b", "pcie", List.of("r3")),
                            device("c", "pcie", List.of("r2", "r3")))),
                    constrain(claim("c", request("x", 2)), match("driver.example.com/pcie")))
                .expect(List.of("x=node-1/a", "x=node-1/c"))));
    cs.add(
        named(
            "firstAvailable falls back to the second subrequest",
            Case.of(
                    List.of(twoGpus),
                    claim("c", firstAvailable("r", sub("big", 3), sub("small", 1))))
                .expect(List.of("r/small=node-1/gpu-0"))));
    cs.add(
        named(
            "firstAvailable disabled",
            Case.of(List.of(twoGpus), claim("c", firstAvailable("r", sub("a", 1))))
                .features(new AllocatorFeatures(true, true, true, true, true, true, false))
                .fails(
                    "claim default/c, request r: has subrequests, but the DRAPrioritizedList feature is disabled")));
    cs.add(
        named(
            "admin access may use an allocated device",
            Case.of(
                    List.of(twoGpus),
                    claim(
                        "c",
                        edit(
                            request("r", 1),
                            e -> {
                              e.setAdminAccess(true);
                              return e;
                            })))
                .state(AllocatedState.builder().device(DRIVER, NODE, "gpu-0").build())
                .expect(List.of("r=node-1/gpu-0"))));
    cs.add(
        named(
            "admin access while the gate is off",
            Case.of(
                    List.of(twoGpus),
                    claim(
                        "c",
                        edit(
                            request("r", 1),
                            e -> {
                              e.setAdminAccess(true);
                              return e;
                            })))
                .features(new AllocatorFeatures(false, true, true, true, true, true, true))
                .fails(
                    "claim default/c, request r: admin access is requested, but the feature is disabled")));
    cs.add(
        named(
            "NoSchedule taint makes a device unusable",
            Case.of(
                    List.of(slice("s", taint(device("d0"), "k", "v", "NoSchedule"), device("d1"))),
                    claim("c", request("r", 1)))
                .expect(List.of("r=node-1/d1"))));
    cs.add(
        named(
            "None taint is ignored",
            Case.of(
                    List.of(slice("s", taint(device("d0"), "k", "v", "None"), device("d1"))),
                    claim("c", request("r", 1)))
                .expect(List.of("r=node-1/d0"))));
    cs.add(
        named(
            "tolerated taint",
            Case.of(
                    List.of(slice("s", taint(device("d0"), "k", "v", "NoExecute"), device("d1"))),
                    claim(
                        "c",
                        tolerate(
                            request("r", 1),
                            new DeviceTolerationBuilder()
                                .withKey("k")
                                .withOperator("Exists")
                                .build())))
                .expect(List.of("r=node-1/d0"))));
    cs.add(
        named(
            "taints ignored when DRADeviceTaints is off",
            Case.of(
                    List.of(slice("s", taint(device("d0"), "k", "v", "NoSchedule"), device("d1"))),
                    claim("c", request("r", 1)))
                .features(new AllocatorFeatures(true, true, true, false, true, true, true))
                .expect(List.of("r=node-1/d0"))));
    cs.add(
        named(
            "shared counters limit partitions",
            Case.of(
                    List.of(
                        counterSlice("counters", "p", counterSet("gpu", "mem", "8Gi")),
                        slice(
                            "devices",
                            NODE,
                            DRIVER,
                            "p",
                            1,
                            2,
                            consumes(device("half-0"), "gpu", "mem", "4Gi"),
                            consumes(device("half-1"), "gpu", "mem", "4Gi"),
                            consumes(device("whole"), "gpu", "mem", "8Gi"))),
                    claim("a", request("r", 1)),
                    claim("b", request("r", 1)),
                    claim("c", request("r", 1)))
                .fails(UNSCHEDULABLE)));
    cs.add(
        named(
            "counters: two halves fit, then the whole device does not",
            Case.of(
                    List.of(
                        counterSlice("counters", "p", counterSet("gpu", "mem", "8Gi")),
                        slice(
                            "devices",
                            NODE,
                            DRIVER,
                            "p",
                            1,
                            2,
                            consumes(device("half-0"), "gpu", "mem", "4Gi"),
                            consumes(device("half-1"), "gpu", "mem", "4Gi"),
                            consumes(device("whole"), "gpu", "mem", "8Gi"))),
                    claim("a", request("r", 1)),
                    claim("b", request("r", 1)))
                .expect(List.of("r=p/half-0"), List.of("r=p/half-1"))));
    String mem1 =
        "device.capacity[\"driver.example.com\"].memory.compareTo(quantity(\"1Gi\")) >= 0";
    String mem2 =
        "device.capacity[\"driver.example.com\"].memory.compareTo(quantity(\"2Gi\")) >= 0";
    cs.add(
        named(
            "upstream small-and-large-backtrack-requests",
            Case.of(
                    List.of(
                        slice(
                            "s",
                            capacity(device("large"), "memory", "2Gi"),
                            capacity(device("small"), "memory", "1Gi"))),
                    claim("c", request("a", 1, mem1), request("b", 1, mem2)))
                .expect(List.of("a=node-1/small", "b=node-1/large"))));
    cs.add(
        named(
            "upstream small-and-large-backtrack-claims",
            Case.of(
                    List.of(
                        slice(
                            "s",
                            capacity(device("large"), "memory", "2Gi"),
                            capacity(device("small"), "memory", "1Gi"))),
                    claim("a", request("r", 1, mem1)),
                    claim("b", request("r", 1, mem2)))
                .expect(List.of("r=node-1/small"), List.of("r=node-1/large"))));
    cs.add(
        named(
            "upstream with-constraint-for-request-retry",
            Case.of(
                    List.of(
                        slice(
                            "s",
                            device("d1", "version", "1.0.0", "str", "a"),
                            device("d2", "version", "2.0.0", "str", "b"),
                            device("d3", "version", "3.0.0", "str", "b"))),
                    constrain(
                        claim("c", request("a", 1), request("b", 1)),
                        match("driver.example.com/version", "a"),
                        match("driver.example.com/str")))
                .expect(List.of("a=node-1/d2", "b=node-1/d3"))));
    cs.add(
        named(
            "upstream prioritized-list-with-backtracking",
            Case.of(
                    List.of(
                        slice(
                            "s1",
                            NODE,
                            DRIVER,
                            "pool1",
                            1,
                            1,
                            capacity(device("d1"), "memory", "8Gi")),
                        slice(
                            "s2",
                            NODE,
                            DRIVER,
                            "pool2",
                            1,
                            1,
                            capacity(device("d2"), "memory", "4Gi"))),
                    claim(
                        "c",
                        firstAvailable(
                            "a",
                            sub("big", 1, mem1.replace("1Gi", "8Gi")),
                            sub("small", 1, mem1.replace("1Gi", "4Gi"))),
                        request("b", 1, mem1.replace("1Gi", "8Gi"))))
                .expect(List.of("a/small=pool2/d2", "b=pool1/d1"))));
    cs.add(
        named(
            "pool spread over nodes is complete when all its slices exist",
            Case.of(
                    List.of(
                        slice("a", NODE, DRIVER, "spread", 1, 2, device("d0")),
                        slice("b", "node-2", DRIVER, "spread", 1, 2, device("d1"))),
                    claim("c", request("r", 1)))
                .expect(List.of("r=spread/d0"))));
    cs.add(
        named(
            "pool with a newer generation elsewhere is obsolete",
            Case.of(
                    List.of(
                        slice("a", NODE, DRIVER, "spread", 1, 2, device("d0")),
                        slice("b", "node-2", DRIVER, "spread", 2, 2, device("d1"))),
                    claim("c", request("r", 1)))
                .fails(UNSCHEDULABLE)));
    return cs.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void allocates(String name, Case c) throws Exception {
    check(c);
  }

  /** Runs one case: its picks, its error (classified), or unschedulable. */
  static void check(Case c) throws Exception {
    Allocator allocator =
        Allocator.create(c.features(), c.state(), DeviceClassLister.of(c.classes()), c.slices());
    if (c.error() != null && !c.error().equals(UNSCHEDULABLE)) {
      assertThatThrownBy(() -> allocator.allocate(c.node(), c.claims(), Deadline.none()))
          .isInstanceOfSatisfying(
              AllocationException.class,
              e -> {
                assertThat(e.isNodeLocal())
                    .as("node-local")
                    .isEqualTo(NODE_LOCAL_ERRORS.contains(c.error()));
                assertThat(e.isDeadlineExceeded()).as("deadline exceeded").isFalse();
              })
          .hasMessage(c.error());
      return;
    }
    AllocationOutcome outcome = allocator.allocate(c.node(), c.claims(), Deadline.none());
    if (UNSCHEDULABLE.equals(c.error())) {
      assertThat(outcome).isInstanceOf(AllocationOutcome.Unschedulable.class);
      return;
    }
    assertThat(outcome).isInstanceOf(AllocationOutcome.Allocated.class);
    List<AllocationResult> results = ((AllocationOutcome.Allocated) outcome).results();
    List<List<String>> got = results.stream().map(Fixtures::picks).toList();
    assertThat(got).isEqualTo(c.picks());
  }
}
