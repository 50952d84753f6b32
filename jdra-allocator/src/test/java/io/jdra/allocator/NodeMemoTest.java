package io.jdra.allocator;

import static io.jdra.allocator.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * A node's kept outcome ({@link NodeCache}, the allocator's NodeMemo) is what a fresh allocation
 * gives: random sequences of pods (claims of a few templates, new claim objects each time),
 * allocations and deallocations, slice, class and node changes, compared node by node with an
 * allocator without node caches. Dropping any part of the memo's key makes this fail.
 */
class NodeMemoTest {
  /**
   * Enough nodes (pools) that the allocated state's base is made anew now and then (after a dozen
   * or more changed pools), which the memo must notice; each pod filters a window of them, as the
   * scheduler's adaptive percentage does.
   */
  static final int NODES = 40;

  static final int WINDOW = 10;
  static final int STEPS = 400;

  /** The cluster as the scheduler would see it; changed by the steps. */
  final Random random = new Random(42);

  final Map<String, ResourceSlice> slices = new TreeMap<>();
  final Map<String, DeviceClass> classes = new TreeMap<>();
  final Node[] nodes = new Node[NODES];
  final NodeCache[] caches = new NodeCache[NODES];
  final AllocatedDevices inUse = new AllocatedDevices();
  final List<List<DeviceRequestAllocationResult>> allocated = new ArrayList<>();
  SliceIndex index;
  final List<Integer> current = new ArrayList<>();
  int pods;
  long compared;
  long outcomesThatFit;
  long outcomesThatDoNotFit;
  long errors;

  /** Claim templates: a pod gets one or two of these, as new claim objects with these specs. */
  final List<IntFunction<ResourceClaim>> templates =
      List.of(
          n -> claim("one-" + n, request("r", 1)),
          n -> claim("two-a-" + n, request("r", "gpu-a", 2)),
          n ->
              constrain(
                  claim("numa-" + n, request("x", 1), request("y", 1)),
                  match(DRIVER + "/numa", "x", "y")),
          n ->
              claim(
                  "first-" + n,
                  firstAvailable(
                      "r",
                      sub("big", 3, "device.attributes[\"" + DRIVER + "\"].model == \"a\""),
                      sub("small", 1))),
          n -> claim("net-" + n, request("r", "net", 1)),
          n -> ResultFieldsTest.capacityClaim("cap-" + n, "3Gi"),
          n -> claim("counted-" + n, request("r", "counted", 1)),
          n -> claim("all-" + n, all("r", "device.attributes[\"" + DRIVER + "\"].numa == 0")),
          // A class that exists only now and then: an error on every node meanwhile.
          n -> claim("sometimes-" + n, request("r", "sometimes", 1)));

  @Test
  void keptOutcomesAreWhatFreshAllocationsGive() throws Exception {
    for (int i = 0; i < NODES; i++) {
      nodes[i] = node("node-" + i, "zone", i % 2 == 0 ? "a" : "b");
      caches[i] = new NodeCache();
      slices.put("s-" + i, nodeSlice(i, 4));
    }
    slices.put(
        "net",
        withSelector(
            slice(
                "net",
                null,
                DRIVER,
                "net",
                1,
                1,
                dev("n0", "net", "c", 0),
                dev("n1", "net", "c", 0)),
            labelSelector("zone", "a")));
    slices.put("counters", counterSlice("counters", "node-5", counterSet("mem", "gb", "8")));
    classes.put(CLASS, gpu(true));
    classes.put("gpu-a", gpuA("a"));
    classes.put("net", deviceClass("net", "device.attributes[\"" + DRIVER + "\"].kind == \"net\""));
    classes.put(
        "counted",
        deviceClass("counted", "device.attributes[\"" + DRIVER + "\"].kind == \"part\""));
    reindex();
    for (int step = 0; step < STEPS; step++) {
      int op = random.nextInt(20);
      if (op < 12) {
        pod(step);
      } else if (op < 15) {
        deallocate();
      } else if (op < 17) {
        changeSlice();
      } else if (op < 19) {
        changeClass();
      } else {
        relabel();
      }
    }
    long hits = 0;
    for (NodeCache c : caches) {
      hits += c.hits();
    }
    System.out.printf(
        "compared %d, fit %d, do not fit %d, errors %d, kept outcomes handed out %d%n",
        compared, outcomesThatFit, outcomesThatDoNotFit, errors, hits);
    // The sequences reach every kind of outcome, and the memo served many of them.
    assertThat(outcomesThatFit).isGreaterThan(200);
    assertThat(outcomesThatDoNotFit).isGreaterThan(100);
    assertThat(errors).isGreaterThan(0);
    assertThat(hits).isGreaterThan(compared / 10);
  }

  /**
   * A pool's devices in use change and change back while the allocated state keeps its base: the
   * outcome kept while the pool was changed (in the state's overlay) is not what the pool gives
   * once it is back in the base.
   */
  @Test
  void anOutcomeKeptWhileThePoolWasChangedIsNotHandedOutOnceItIsBack() throws Exception {
    ResourceSlice own = slice("s", NODE, DRIVER, NODE, 1, 1, device("d0"), device("d1"));
    SliceIndex idx = SliceIndex.of(AllocatorFeatures.all(), List.of(own));
    DeviceClassLister lister = DeviceClassLister.of(List.of(gpu(true)));
    Node node = node(NODE);
    NodeCache cache = new NodeCache();
    AllocatedDevices devices = new AllocatedDevices();
    DeviceRequestAllocationResult d0 = new DeviceRequestAllocationResult();
    d0.setDriver(DRIVER);
    d0.setPool(NODE);
    d0.setDevice("d0");
    d0.setRequest("r");
    List<String> got = new ArrayList<>();
    for (int step = 0; step < 3; step++) {
      if (step == 1) {
        devices.add(d0, true);
      } else if (step == 2) {
        devices.remove(d0, true);
      }
      AllocatedState state = devices.snapshot();
      List<ResourceClaim> claims = List.of(claim("c-" + step, request("r", 1)));
      String kept =
          outcome(() ->
              Allocator.create(state, lister, idx).allocate(node, cache, claims, Deadline.none()));
      String fresh =
          outcome(
              () -> Allocator.create(state, lister, idx).allocate(node, claims, Deadline.none()));
      assertThat(kept).as("step %d", step).isEqualTo(fresh);
      got.add(kept);
    }
    assertThat(got.get(1)).isNotEqualTo(got.get(2));
  }

  private static DeviceClass gpu(boolean byDriver) {
    return deviceClass(
        CLASS,
        byDriver
            ? "device.driver == \"" + DRIVER + "\""
            : "device.attributes[\"" + DRIVER + "\"].kind == \"gpu\"");
  }

  private static DeviceClass gpuA(String model) {
    return deviceClass("gpu-a", "device.attributes[\"" + DRIVER + "\"].model == \"" + model + "\"");
  }

  /** Every device has every attribute the selectors read (a missing one is a CEL error). */
  private static Device dev(String name, String kind, String model, long numa) {
    return device(name, "kind", kind, "model", model, "numa", numa);
  }

  /**
   * Node i's own pool: {@code count} devices of two models and numa nodes; every third node has a
   * shareable device too, node 5 devices that consume counters of a counter-only slice of its pool.
   */
  private ResourceSlice nodeSlice(int i, int count) {
    List<Device> devs = new ArrayList<>();
    for (int d = 0; d < count; d++) {
      devs.add(dev("d" + d, "gpu", d % 2 == 0 ? "a" : "b", d / 2));
    }
    if (i % 3 == 0) {
      Device nic = ResultFieldsTest.shareable("nic", "10Gi", null);
      nic.setAttributes(dev("nic", "nic", "c", 0).getAttributes());
      devs.add(nic);
    }
    if (i == 5) {
      for (int d = 0; d < 3; d++) {
        devs.add(consumes(dev("p" + d, "part", "c", 0), "mem", "gb", "4"));
      }
    }
    return slice(
        "s-" + i, "node-" + i, DRIVER, "node-" + i, 1, i == 5 ? 2 : 1, devs.toArray(Device[]::new));
  }

  private void reindex() {
    index = SliceIndex.of(AllocatorFeatures.all(), List.copyOf(slices.values()));
  }

  /** One pod: every node filtered with and without its cache, then bound to a node that fits. */
  private void pod(int step) throws Exception {
    // Pods come in runs of one template set, as in a steady state, now and then another set.
    if (current.isEmpty() || random.nextInt(5) == 0) {
      current.clear();
      int n = 1 + (random.nextInt(4) == 0 ? 1 : 0);
      for (int k = 0; k < n; k++) {
        current.add(random.nextInt(templates.size()));
      }
    }
    List<ResourceClaim> claims = new ArrayList<>();
    for (int t : current) {
      claims.add(templates.get(t).apply(pods++));
    }
    AllocatedState state = inUse.snapshot();
    DeviceClassLister lister = DeviceClassLister.of(List.copyOf(classes.values()));
    Allocator kept = Allocator.create(state, lister, index);
    Allocator fresh = Allocator.create(state, lister, index);
    List<AllocationResult> bind = null;
    int first = random.nextInt(NODES);
    for (int w = 0; w < WINDOW; w++) {
      int i = (first + w) % NODES;
      Node node = nodes[i];
      NodeCache cache = caches[i];
      String a = outcome(() -> kept.allocate(node, cache, claims, Deadline.none()));
      String b = outcome(() -> fresh.allocate(node, claims, Deadline.none()));
      assertThat(a).as("step %d, node-%d, claims %s", step, i, claims.size()).isEqualTo(b);
      compared++;
      if (bind == null && a.startsWith("allocated") && random.nextBoolean()) {
        AllocationOutcome o = kept.allocate(nodes[i], caches[i], claims, Deadline.none());
        if (o instanceof AllocationOutcome.Allocated al) {
          bind = al.results();
        }
      }
    }
    if (bind != null) {
      List<DeviceRequestAllocationResult> results = new ArrayList<>();
      for (AllocationResult r : bind) {
        results.addAll(r.getDevices().getResults());
      }
      results.forEach(r -> inUse.add(r, true));
      allocated.add(results);
    }
  }

  private interface Call {
    AllocationOutcome run() throws AllocationException;
  }

  /** The whole outcome as text: results as JSON-ish toString, explanation, or the error. */
  private String outcome(Call call) {
    try {
      AllocationOutcome o = call.run();
      if (o instanceof AllocationOutcome.Allocated a) {
        outcomesThatFit++;
        return "allocated " + a.results();
      }
      outcomesThatDoNotFit++;
      return "unschedulable " + ((AllocationOutcome.Unschedulable) o).explanation();
    } catch (AllocationException e) {
      errors++;
      return "error " + e.getMessage();
    }
  }

  private void deallocate() {
    if (allocated.isEmpty()) {
      return;
    }
    // Often the newest, which puts its pool's devices in use back to what they were before: the
    // pool then leaves the state's overlay while the base stays.
    int k = random.nextBoolean() ? allocated.size() - 1 : random.nextInt(allocated.size());
    List<DeviceRequestAllocationResult> results = allocated.remove(k);
    results.forEach(r -> inUse.remove(r, true));
  }

  /** A node's slice gets more or fewer devices (a new index, as after a slice event). */
  private void changeSlice() {
    int i = random.nextInt(NODES);
    slices.put("s-" + i, nodeSlice(i, 2 + random.nextInt(4)));
    reindex();
  }

  /**
   * gpu selects by driver or by kind (the net pool's devices come first on zone a), gpu-a the other
   * model; either may be replaced by an equal object; "sometimes" flips.
   */
  private void changeClass() {
    classes.put("gpu-a", gpuA(random.nextBoolean() ? "a" : "b"));
    classes.put(CLASS, gpu(random.nextBoolean()));
    if (classes.remove("sometimes") == null) {
      classes.put("sometimes", deviceClass("sometimes", "device.driver == \"" + DRIVER + "\""));
    }
  }

  /** A node gets a new object, in the other zone now and then (which changes its pools). */
  private void relabel() {
    int i = random.nextInt(NODES);
    nodes[i] = node("node-" + i, "zone", random.nextBoolean() ? "a" : "b");
  }
}
