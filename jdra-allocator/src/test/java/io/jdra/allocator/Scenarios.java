package io.jdra.allocator;

import static io.jdra.allocator.Fixtures.*;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.internal.Allocation;
import io.jdra.allocator.internal.CelSelectors;
import java.util.ArrayList;
import java.util.List;

/** Inputs shared by tests and JMH benchmarks: upstream's slow shapes and its plain shape. */
public final class Scenarios {
  private Scenarios() {}

  /** One allocation problem. */
  public record Scenario(
      List<DeviceClass> classes,
      List<ResourceSlice> slices,
      AllocatedState state,
      Node node,
      List<ResourceClaim> claims) {

    /** An allocator with the default budget before pruning starts. */
    public Allocator allocator() {
      return allocator(Allocation.DEFAULT_BUDGET);
    }

    /** An allocator that prunes after {@code budget} search steps (Long.MAX_VALUE: never). */
    public Allocator allocator(long budget) {
      AllocatorFeatures f = AllocatorFeatures.all();
      Allocation.Inputs in =
          new Allocation.Inputs(
              f, state, DeviceClassLister.of(classes), slices, CelSelectors.forFeatures(f), budget);
      return (n, c, d) -> Allocation.run(in, n, c, d);
    }

    public AllocationOutcome run(Allocator a) throws AllocationException {
      return a.allocate(node, claims, Deadline.none());
    }
  }

  static Device indexed(int i, Object... more) {
    Object[] attrs = new Object[more.length + 2];
    attrs[0] = "index";
    attrs[1] = (long) i;
    System.arraycopy(more, 0, attrs, 2, more.length);
    return device("dev-" + i, attrs);
  }

  /**
   * n devices, n claims of one device each; only the last claim is picky and can use only dev-0,
   * which the first claim takes in upstream's first try (Kubernetes issue #131730).
   */
  public static Scenario onlyDeviceTrap(int n) {
    List<Device> devs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      devs.add(indexed(i));
    }
    List<ResourceClaim> claims = new ArrayList<>();
    for (int i = 0; i < n - 1; i++) {
      claims.add(claim("c" + i, request("r", 1)));
    }
    claims.add(
        claim("last", request("r", 1, "device.attributes[\"driver.example.com\"].index == 0")));
    return new Scenario(
        List.of(deviceClass(CLASS)),
        List.of(slice("s", devs.toArray(Device[]::new))),
        AllocatedState.empty(),
        node(NODE),
        claims);
  }

  /** {@link #onlyDeviceTrap} where every claim asks through firstAvailable (two alternatives). */
  public static Scenario onlyDeviceTrapPrioritized(int n) {
    Scenario plain = onlyDeviceTrap(n);
    List<ResourceClaim> claims = new ArrayList<>();
    for (ResourceClaim c : plain.claims()) {
      var exact = c.getSpec().getDevices().getRequests().get(0).getExactly();
      String[] sel =
          exact.getSelectors().stream().map(x -> x.getCel().getExpression()).toArray(String[]::new);
      claims.add(
          claim(
              c.getMetadata().getName(),
              firstAvailable("r", sub("two", 2, sel), sub("one", 1, sel))));
    }
    return new Scenario(plain.classes(), plain.slices(), plain.state(), plain.node(), claims);
  }

  /** Claims of {@code perClaim} devices each that together need one device more than exist. */
  public static Scenario oneTooMany(int claims, int perClaim) {
    int n = claims * perClaim - 1;
    List<Device> devs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      devs.add(indexed(i));
    }
    List<ResourceClaim> cs = new ArrayList<>();
    for (int i = 0; i < claims; i++) {
      cs.add(claim("c" + i, request("r", perClaim)));
    }
    return new Scenario(
        List.of(deviceClass(CLASS)),
        List.of(slice("s", devs.toArray(Device[]::new))),
        AllocatedState.empty(),
        node(NODE),
        cs);
  }

  /**
   * 64 devices in 8 groups (group = index mod 8); one device of each of the first seven groups is
   * in use, so only the last group has 8 free devices. The claim wants 8 devices with one group, as
   * {@code requests} requests of {@code 8 / requests} devices.
   */
  public static Scenario matchGroups(int requests) {
    List<Device> devs = new ArrayList<>();
    AllocatedState.Builder used = AllocatedState.builder();
    for (int i = 0; i < 64; i++) {
      devs.add(indexed(i, "group", (long) (i % 8)));
      if (i < 7) {
        used.device(DRIVER, NODE, "dev-" + i);
      }
    }
    List<io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest> reqs = new ArrayList<>();
    for (int r = 0; r < requests; r++) {
      reqs.add(request("r" + r, 8 / requests));
    }
    ResourceClaim claim =
        constrain(
            claim(
                "grouped",
                reqs.toArray(io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest[]::new)),
            match(DRIVER + "/group"));
    return new Scenario(
        List.of(deviceClass(CLASS)),
        List.of(slice("s", devs.toArray(Device[]::new))),
        used.build(),
        node(NODE),
        List.of(claim));
  }

  /**
   * Upstream scheduler_perf's match_empty shape, as Filter asks it of every node in turn: {@code
   * nodes} nodes with 10 devices each in their own slice, whose {@code
   * resource.kubernetes.io/pciRoot} alternates between "0" and "1"; one claim of five single-device
   * requests that must share the root, so each search skips every other device. {@link
   * PerNode#next} allocates on the next node.
   */
  public static PerNode matchPerNode(int nodes) {
    List<ResourceSlice> slices = new ArrayList<>();
    List<Node> nodeList = new ArrayList<>();
    for (int n = 0; n < nodes; n++) {
      List<Device> devs = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        devs.add(device("gpu-" + i, "resource.kubernetes.io/pciRoot", Integer.toString(i % 2)));
      }
      String name = "node-" + n;
      slices.add(slice(name + "-slice", name, DRIVER, name, 1, 1, devs.toArray(Device[]::new)));
      nodeList.add(node(name));
    }
    List<io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest> reqs = new ArrayList<>();
    for (int r = 0; r < 5; r++) {
      reqs.add(request("req-" + r, 1));
    }
    ResourceClaim claim =
        constrain(
            claim(
                "claim",
                reqs.toArray(io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest[]::new)),
            match("resource.kubernetes.io/pciRoot"));
    Allocator allocator =
        Allocator.create(
            AllocatedState.empty(),
            DeviceClassLister.of(
                List.of(deviceClass(CLASS, "device.driver == \"" + DRIVER + "\""))),
            SliceIndex.of(AllocatorFeatures.defaults(), slices));
    return new PerNode(allocator, nodeList, List.of(claim));
  }

  /** One scheduler's allocator (one index, kept state) asked for the same claims node by node. */
  public static final class PerNode {
    private final Allocator allocator;
    private final List<Node> nodes;
    private final List<ResourceClaim> claims;
    private int next;

    PerNode(Allocator allocator, List<Node> nodes, List<ResourceClaim> claims) {
      this.allocator = allocator;
      this.nodes = nodes;
      this.claims = claims;
    }

    /** Allocates on the next node (round robin). */
    public AllocationOutcome next() throws AllocationException {
      Node node = nodes.get(next);
      next = next + 1 == nodes.size() ? 0 : next + 1;
      return allocator.allocate(node, claims, Deadline.none());
    }
  }

  /**
   * Upstream scheduler_perf's plain shape: {@code nodes} nodes with 10 devices each in their own
   * slice, a class selecting the driver, one claim of one device.
   */
  public static Scenario plain(int nodes) {
    List<ResourceSlice> slices = new ArrayList<>();
    for (int n = 0; n < nodes; n++) {
      List<Device> devs = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        devs.add(indexed(i));
      }
      String name = "node-" + n;
      slices.add(slice(name + "-slice", name, DRIVER, name, 1, 1, devs.toArray(Device[]::new)));
    }
    return new Scenario(
        List.of(deviceClass(CLASS, "device.driver == \"" + DRIVER + "\"")),
        slices,
        AllocatedState.empty(),
        node("node-" + (nodes / 2)),
        List.of(claim("claim", request("r", 1))));
  }
}
