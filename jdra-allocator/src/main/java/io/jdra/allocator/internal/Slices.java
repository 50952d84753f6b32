package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocatorFeatures;
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

  /** A node's pools and candidate devices, for the node object they were gathered for. */
  record Gathered(
      Node node, List<PoolInfo> pools, List<Pools.Skipped> skipped, DevFacts[] devices) {}

  public Slices(AllocatorFeatures features, List<ResourceSlice> slices, SelectorEngine cel) {
    this.features = features;
    this.all = List.copyOf(slices);
    this.cel = cel;
    this.byNode = byNode(all);
    this.shared = shared(all);
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
    String name = NodeMatcher.name(node);
    Gathered g = node == null ? null : gathered.get(name);
    if (g != null && g.node() == node) {
      return g;
    }
    List<Pools.Skipped> skipped = new ArrayList<>();
    List<PoolInfo> pools = Pools.gather(forNode(name), all, node, features, skipped);
    g = new Gathered(node, List.copyOf(pools), List.copyOf(skipped), facts(pools));
    if (node != null) {
      gathered.put(name, g);
    }
    return g;
  }

  private static DevFacts[] facts(List<PoolInfo> pools) {
    List<DevFacts> out = new ArrayList<>();
    for (PoolInfo pool : pools) {
      if (pool.incomplete || pool.invalid()) {
        continue;
      }
      for (ResourceSlice slice : pool.slicesTargetingNode) {
        for (Device d : NodeMatcher.list(slice.getSpec().getDevices())) {
          out.add(new DevFacts(new DeviceId(pool.driver, pool.name, d.getName()), d, slice, pool));
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
