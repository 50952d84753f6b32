package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.allocator.NodeCache;
import io.jdra.api.names.DeviceId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One snapshot of the ResourceSlices, indexed for allocation: slices by node (as upstream indexes
 * them once per allocator), and per node what depends only on the slices and the node object: the
 * gathered pools and the candidate devices in search order with their {@link DevFacts}. The
 * scheduler keeps one instance while the slices do not change, so Filter on a node does not gather
 * its pools or evaluate class selectors again for every pod. Thread-safe.
 */
public final class Slices {
  private final AllocatorFeatures features;
  private final List<ResourceSlice> all;
  private final SelectorEngine cel;
  private final Map<String, List<ResourceSlice>> byNode;
  private final List<ResourceSlice> shared;
  private final ConcurrentHashMap<String, Gathered> gathered = new ConcurrentHashMap<>();

  /**
   * Whether every slice that is not local to one node is available to all nodes alike (allNodes, or
   * counters only), with no device bound to the node it is used on: then every node without slices
   * of its own sees the same pools, devices and results.
   */
  private final boolean sharedNodeIndependent;

  private volatile Gathered sharedGathered;

  /** The devices' attribute values, canonical across this snapshot's views. */
  private final Attributes.Interner values = new Attributes.Interner();

  /**
   * A node's pools and candidate devices, for the node object they were gathered for. When {@code
   * nodeIndependent}, the same object serves every node without node-local slices (its {@code node}
   * is null), and an allocation on it does not depend on which of those nodes it is for. {@code
   * owner} is the index that gathered it (a {@link NodeCache} may hold a view of an older index).
   */
  record Gathered(
      Slices owner,
      Node node,
      List<PoolInfo> pools,
      List<Pools.Skipped> skipped,
      DevFacts[] devices,
      boolean nodeIndependent,
      byte[][] selectable,
      PoolInfo[] runPools,
      int[] runStarts,
      PoolInfo onlyPool) {

    Gathered(
        Slices owner,
        Node node,
        List<PoolInfo> pools,
        List<Pools.Skipped> skipped,
        DevFacts[] devices,
        boolean nodeIndependent) {
      this(
          owner,
          node,
          pools,
          skipped,
          devices,
          nodeIndependent,
          new byte[MAX_KEYS][],
          null,
          null,
          null);
    }

    /**
     * The devices come pool by pool: {@code runPools[k]}'s devices are {@code
     * devices[runStarts[k]..runStarts[k + 1])}, found once per view rather than by walking the
     * devices on every allocation; {@code onlyPool} is the one pool when there is one (the common
     * case), so an allocation asks it for its devices without reading the two arrays.
     */
    Gathered {
      if (runStarts == null) {
        List<PoolInfo> runs = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < devices.length; i++) {
          if (i == 0 || devices[i].pool != devices[i - 1].pool) {
            runs.add(devices[i].pool);
            starts.add(i);
          }
        }
        starts.add(devices.length);
        runPools = runs.toArray(PoolInfo[]::new);
        runStarts = starts.stream().mapToInt(Integer::intValue).toArray();
        onlyPool = runPools.length == 1 ? runPools[0] : null;
      }
    }

    /**
     * Which devices of this view the selectors of {@code key} select: per device index 0 unknown, 1
     * selected, 2 not. Shared by every search on this view, since selection depends only on the
     * device, the expressions and this view's node; searches fill it in as they go (racing writes
     * agree). Errors are not stored, so each search that meets one reports it for its own claim.
     * Two threads that both find the slot empty each put an array there and the later one stays:
     * the other's results are only forgotten, and a new array's zeros are visible to every thread.
     */
    byte[] selectable(SelectorKey key) {
      if (key.id() < 0) {
        return new byte[devices.length];
      }
      byte[] known = selectable[key.id()];
      if (known == null) {
        known = new byte[devices.length];
        selectable[key.id()] = known;
      }
      return known;
    }
  }

  /**
   * The expressions that decide whether a device is selectable for a request (the class's, a null
   * separator, the request's), numbered per slice snapshot so that a view keeps their results in an
   * array slot; {@code id} -1 when the snapshot has numbered {@link #MAX_KEYS} already (results are
   * then not kept).
   */
  record SelectorKey(List<String> expressions, int id) {}

  /** Selector lists whose results views keep; a scheduler's claims use a handful. */
  private static final int MAX_KEYS = 64;

  private final ConcurrentHashMap<List<String>, SelectorKey> keys = new ConcurrentHashMap<>();

  /** How many keys were numbered, under one entry (a ConcurrentHashMap counts atomically). */
  private final ConcurrentHashMap<String, Integer> numbered = new ConcurrentHashMap<>();

  /** The numbered key of these expressions (see {@link SelectorKey}). */
  SelectorKey key(List<String> expressions) {
    SelectorKey k = keys.get(expressions);
    if (k != null) {
      return k;
    }
    if (keys.size() >= MAX_KEYS) {
      return new SelectorKey(expressions, -1);
    }
    // Runs once per key; each run takes the next number, so no two keys share a slot.
    return keys.computeIfAbsent(expressions, e -> new SelectorKey(e, nextId()));
  }

  private int nextId() {
    int id = numbered.merge("n", 1, Integer::sum) - 1;
    return id < MAX_KEYS ? id : -1;
  }

  public Slices(AllocatorFeatures features, List<ResourceSlice> slices, SelectorEngine cel) {
    this.features = features;
    this.all = List.copyOf(slices);
    this.cel = cel;
    this.byNode = byNode(all);
    this.shared = shared(all);
    this.sharedNodeIndependent = nodeIndependent(shared);
  }

  List<ResourceSlice> all() {
    return all;
  }

  SelectorEngine cel() {
    return cel;
  }

  /**
   * Pools and devices for the node; computed once per node object (nodes are replaced, never
   * changed, when their labels change). The result and its lists must not be modified.
   */
  Gathered gather(Node node) throws AllocationException {
    return gather(node, null);
  }

  /**
   * As {@link #gather(Node)}, first asking {@code cache} (one per node name, may be null), which
   * then keeps the answer: the view there serves when this index made it and, unless it serves
   * every node without slices of its own, for this node object, exactly as the lookup by name does.
   */
  Gathered gather(Node node, NodeCache cache) throws AllocationException {
    if (cache == null || node == null) {
      return lookup(node);
    }
    if (cache.view() instanceof Gathered g
        && g.owner() == this
        && (g.nodeIndependent() || g.node() == node)) {
      return g;
    }
    Gathered g = lookup(node);
    cache.view(g);
    return g;
  }

  private Gathered lookup(Node node) throws AllocationException {
    String name = NodeMatcher.name(node);
    // One lookup per node and pod: a node's entry is its own view, or the shared one when it has
    // no slices of its own (which no node object changes while these slices stay).
    Gathered g = node == null ? null : gathered.get(name);
    if (g != null && (g.nodeIndependent() || g.node() == node)) {
      return g;
    }
    if (sharedNodeIndependent && !byNode.containsKey(name)) {
      g = gatherShared();
      if (node != null) {
        gathered.put(name, g);
      }
      return g;
    }
    List<Pools.Skipped> skipped = new ArrayList<>();
    List<PoolInfo> pools = Pools.gather(forNode(name), all, node, features, skipped);
    g = new Gathered(this, node, numbered(pools), List.copyOf(skipped), facts(pools), false);
    if (node != null) {
      gathered.put(name, g);
    }
    return g;
  }

  /** The pools every node without slices of its own sees; gathered once (racing threads agree). */
  private Gathered gatherShared() throws AllocationException {
    Gathered g = sharedGathered;
    if (g == null) {
      List<Pools.Skipped> skipped = new ArrayList<>();
      // No slice here selects nodes by name, selector or per device, so no node is needed.
      List<PoolInfo> pools = Pools.gather(shared, all, null, features, skipped);
      g = new Gathered(this, null, numbered(pools), List.copyOf(skipped), facts(pools), true);
      sharedGathered = g;
    }
    return g;
  }

  private static List<PoolInfo> numbered(List<PoolInfo> pools) {
    for (int i = 0; i < pools.size(); i++) {
      pools.get(i).ordinal = i;
    }
    return List.copyOf(pools);
  }

  private DevFacts[] facts(List<PoolInfo> pools) {
    List<DevFacts> out = new ArrayList<>();
    for (PoolInfo pool : pools) {
      if (pool.incomplete || pool.invalid()) {
        continue;
      }
      for (ResourceSlice slice : pool.slicesTargetingNode) {
        for (Device d : NodeMatcher.list(slice.getSpec().getDevices())) {
          DeviceId id = new DeviceId(pool.driver, pool.name, d.getName());
          out.add(new DevFacts(id, d, slice, pool, values));
        }
      }
    }
    return out.toArray(DevFacts[]::new);
  }

  /** Slices that may be relevant for the node: its own, and those without a node name. */
  private List<ResourceSlice> forNode(String node) {
    List<ResourceSlice> own = byNode.getOrDefault(node, List.of());
    if (own.isEmpty()) {
      return shared;
    }
    List<ResourceSlice> out = new ArrayList<>(own.size() + shared.size());
    out.addAll(own);
    out.addAll(shared);
    return out;
  }

  static boolean nodeLocal(ResourceSlice s) {
    String n = s.getSpec().getNodeName();
    boolean counters =
        s.getSpec().getSharedCounters() != null && !s.getSpec().getSharedCounters().isEmpty();
    return n != null && !n.isEmpty() && !counters;
  }

  /** See {@link #sharedNodeIndependent}; malformed slices fail per node, as before. */
  private static boolean nodeIndependent(List<ResourceSlice> shared) {
    for (ResourceSlice s : shared) {
      ResourceSliceSpec spec = s.getSpec();
      if (spec == null || spec.getDriver() == null || spec.getPool() == null) {
        return false;
      }
      // A counter slice may name a node and is used everywhere; its devices would then be
      // bound to the node they are allocated on (the result's node selector names it).
      if (spec.getNodeSelector() != null
          || Boolean.TRUE.equals(spec.getPerDeviceNodeSelection())
          || !NodeMatcher.nz(spec.getNodeName()).isEmpty()) {
        return false;
      }
      for (Device d : NodeMatcher.list(spec.getDevices())) {
        if (Boolean.TRUE.equals(d.getBindsToNode())) {
          return false;
        }
      }
    }
    return true;
  }

  private static Map<String, List<ResourceSlice>> byNode(List<ResourceSlice> slices) {
    Map<String, List<ResourceSlice>> out = new HashMap<>();
    for (ResourceSlice s : slices) {
      if (nodeLocal(s)) {
        out.computeIfAbsent(s.getSpec().getNodeName(), k -> new ArrayList<>()).add(s);
      }
    }
    return out;
  }

  private static List<ResourceSlice> shared(List<ResourceSlice> slices) {
    List<ResourceSlice> out = new ArrayList<>();
    for (ResourceSlice s : slices) {
      if (!nodeLocal(s)) {
        out.add(s);
      }
    }
    return out;
  }
}
