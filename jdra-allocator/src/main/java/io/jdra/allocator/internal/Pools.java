package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocatorFeatures;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Upstream {@code GatherPools}: the pools with devices usable from one node, in search order. */
final class Pools {
  private Pools() {}

  private record PoolKey(String driver, String pool) {}

  /** Why a slice was not used, for explanations. */
  record Skipped(ResourceSlice slice, String reason) {}

  static List<PoolInfo> gather(
      List<ResourceSlice> slicesForNode,
      List<ResourceSlice> allSlices,
      Node node,
      AllocatorFeatures features,
      List<Skipped> skipped)
      throws AllocationException {
    Map<PoolKey, List<ResourceSlice>> pools = new LinkedHashMap<>();
    String nodeName = NodeMatcher.name(node);
    for (ResourceSlice slice : slicesForNode) {
      requireWellFormed(slice);
      ResourceSliceSpec spec = slice.getSpec();
      boolean hasCounters = spec.getSharedCounters() != null && !spec.getSharedCounters().isEmpty();
      String sliceNode = NodeMatcher.nz(spec.getNodeName());
      if (!sliceNode.isEmpty() && !hasCounters && !sliceNode.equals(nodeName)) {
        skipped.add(new Skipped(slice, "node does not match"));
        continue;
      }
      if (!features.partitionableDevices()
          && (spec.getPerDeviceNodeSelection() != null || hasCounters)) {
        skipped.add(new Skipped(slice, "uses DRAPartitionableDevices, which is disabled"));
        continue;
      }
      boolean relevant;
      boolean allNodes = Boolean.TRUE.equals(spec.getAllNodes());
      if (hasCounters) {
        relevant = true;
      } else if (!sliceNode.isEmpty() || allNodes || spec.getNodeSelector() != null) {
        try {
          relevant = NodeMatcher.matches(node, sliceNode, allNodes, spec.getNodeSelector());
        } catch (NodeMatcher.InvalidSelectorException e) {
          throw new AllocationException(
              "gather pool information: failed to perform node selection for slice "
                  + name(slice)
                  + ": failed to parse node selector: "
                  + e.getMessage());
        }
      } else if (Boolean.TRUE.equals(spec.getPerDeviceNodeSelection())) {
        relevant = false;
        for (Device d : NodeMatcher.list(spec.getDevices())) {
          try {
            if (NodeMatcher.matches(
                node, d.getNodeName(), Boolean.TRUE.equals(d.getAllNodes()), d.getNodeSelector())) {
              relevant = true;
              break;
            }
          } catch (NodeMatcher.InvalidSelectorException e) {
            throw new AllocationException(
                "gather pool information: failed to perform node selection for device "
                    + d.getName()
                    + " in slice "
                    + name(slice)
                    + ": failed to parse node selector: "
                    + e.getMessage());
          }
        }
      } else {
        // Some future node selection field: unknown, so not usable.
        skipped.add(new Skipped(slice, "has no node selection this version understands"));
        continue;
      }
      if (!relevant) {
        skipped.add(new Skipped(slice, "node does not match"));
        continue;
      }
      addSlice(pools, slice, skipped);
    }

    List<PoolInfo> result = new ArrayList<>();
    List<PoolInfo> withBindingConditions = new ArrayList<>();
    for (Map.Entry<PoolKey, List<ResourceSlice>> e : pools.entrySet()) {
      PoolKey key = e.getKey();
      List<ResourceSlice> slices = e.getValue();
      long generation = gen(slices.get(0));
      long wanted = count(slices.get(0));
      PoolInfo pool;
      if (slices.size() == wanted) {
        pool = build(key, slices, features, null);
      } else {
        List<ResourceSlice> all = new ArrayList<>();
        boolean obsolete = false;
        for (ResourceSlice s : allSlices) {
          if (!wellFormed(s)) {
            continue;
          }
          if (!s.getSpec().getDriver().equals(key.driver())
              || !s.getSpec().getPool().getName().equals(key.pool())) {
            continue;
          }
          if (gen(s) == generation) {
            all.add(s);
          } else if (gen(s) > generation) {
            obsolete = true;
            break;
          }
        }
        if (obsolete) {
          for (ResourceSlice s : slices) {
            skipped.add(new Skipped(s, "pool " + key.driver() + "/" + key.pool() + " is obsolete"));
          }
          continue;
        }
        if (all.size() != wanted) {
          result.add(PoolInfo.incomplete(key.driver(), key.pool()));
          continue;
        }
        pool = build(key, slices, features, all);
      }
      if (hasBindingConditions(pool)) {
        withBindingConditions.add(pool);
      } else {
        result.add(pool);
      }
    }
    Comparator<PoolInfo> byId =
        Comparator.comparing((PoolInfo p) -> p.driver).thenComparing(p -> p.name);
    result.sort(byId);
    withBindingConditions.sort(byId);
    result.addAll(withBindingConditions);
    return result;
  }

  private static void addSlice(
      Map<PoolKey, List<ResourceSlice>> pools, ResourceSlice slice, List<Skipped> skipped) {
    PoolKey key = new PoolKey(slice.getSpec().getDriver(), slice.getSpec().getPool().getName());
    List<ResourceSlice> current = pools.get(key);
    if (current == null) {
      current = new ArrayList<>();
      current.add(slice);
      pools.put(key, current);
      return;
    }
    long have = gen(current.get(0));
    if (gen(slice) < have) {
      skipped.add(new Skipped(slice, "outdated generation " + gen(slice)));
      return;
    }
    if (gen(slice) > have) {
      for (ResourceSlice old : current) {
        skipped.add(new Skipped(old, "outdated generation " + have));
      }
      current.clear();
    }
    current.add(slice);
  }

  private static PoolInfo build(
      PoolKey key,
      List<ResourceSlice> slices,
      AllocatorFeatures features,
      List<ResourceSlice> all) {
    List<ResourceSlice> sorted = new ArrayList<>(slices);
    sorted.sort(Comparator.comparing(Pools::name));
    List<ResourceSlice> deviceSlices = new ArrayList<>();
    List<ResourceSlice> counterSlices = new ArrayList<>();
    for (ResourceSlice s : sorted) {
      if (features.partitionableDevices()
          && s.getSpec().getSharedCounters() != null
          && !s.getSpec().getSharedCounters().isEmpty()) {
        counterSlices.add(s);
      } else {
        deviceSlices.add(s);
      }
    }
    String bad = duplicateDeviceName(deviceSlices);
    if (bad != null) {
      return PoolInfo.invalid(key.driver(), key.pool(), bad);
    }
    if (!features.partitionableDevices()) {
      return new PoolInfo(key.driver(), key.pool(), false, null, deviceSlices, List.of(), Map.of());
    }
    Map<String, CounterSet> counterSets = new LinkedHashMap<>();
    for (ResourceSlice s : counterSlices) {
      for (CounterSet cs : s.getSpec().getSharedCounters()) {
        if (counterSets.putIfAbsent(cs.getName(), cs) != null) {
          return PoolInfo.invalid(
              key.driver(), key.pool(), "duplicate counter set name " + cs.getName());
        }
      }
    }
    bad = badCounterConsumption(counterSets, sorted);
    if (bad != null) {
      return PoolInfo.invalid(key.driver(), key.pool(), bad);
    }
    if (all == null || all.size() == slices.size()) {
      return new PoolInfo(
          key.driver(), key.pool(), false, null, deviceSlices, List.of(), counterSets);
    }
    Set<String> seen = new HashSet<>();
    for (ResourceSlice s : slices) {
      seen.add(name(s));
    }
    List<ResourceSlice> others = new ArrayList<>();
    for (ResourceSlice s : all) {
      if (!seen.contains(name(s))) {
        others.add(s);
      }
    }
    bad = badCounterConsumption(counterSets, others);
    if (bad != null) {
      return PoolInfo.invalid(key.driver(), key.pool(), bad);
    }
    return new PoolInfo(key.driver(), key.pool(), false, null, deviceSlices, others, counterSets);
  }

  private static String duplicateDeviceName(List<ResourceSlice> slices) {
    Set<String> names = new HashSet<>();
    for (ResourceSlice s : slices) {
      for (Device d : NodeMatcher.list(s.getSpec().getDevices())) {
        if (!names.add(d.getName())) {
          return "duplicate device name " + d.getName();
        }
      }
    }
    return null;
  }

  private static String badCounterConsumption(
      Map<String, CounterSet> counterSets, List<ResourceSlice> slices) {
    for (ResourceSlice s : slices) {
      for (Device d : NodeMatcher.list(s.getSpec().getDevices())) {
        for (DeviceCounterConsumption c : NodeMatcher.list(d.getConsumesCounters())) {
          CounterSet set = counterSets.get(c.getCounterSet());
          if (set == null) {
            return "counter set " + c.getCounterSet() + " not found";
          }
          if (c.getCounters() != null) {
            for (String counter : c.getCounters().keySet()) {
              if (set.getCounters() == null || !set.getCounters().containsKey(counter)) {
                return "counter " + counter + " not found in counter set " + set.getName();
              }
            }
          }
        }
      }
    }
    return null;
  }

  private static boolean hasBindingConditions(PoolInfo pool) {
    for (ResourceSlice s : pool.slicesTargetingNode) {
      for (Device d : NodeMatcher.list(s.getSpec().getDevices())) {
        if (d.getBindingConditions() != null && !d.getBindingConditions().isEmpty()) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean wellFormed(ResourceSlice s) {
    return s.getSpec() != null
        && s.getSpec().getDriver() != null
        && s.getSpec().getPool() != null
        && s.getSpec().getPool().getName() != null;
  }

  /** Objects an API server accepted always have these; say so instead of failing obscurely. */
  private static void requireWellFormed(ResourceSlice s) throws AllocationException {
    if (!wellFormed(s)) {
      throw new AllocationException(
          "ResourceSlice " + name(s) + ": spec.driver and spec.pool.name are required");
    }
  }

  static String name(ResourceSlice s) {
    return s.getMetadata() == null ? "" : NodeMatcher.nz(s.getMetadata().getName());
  }

  private static long gen(ResourceSlice s) {
    Long g = s.getSpec().getPool().getGeneration();
    return g == null ? 0 : g;
  }

  private static long count(ResourceSlice s) {
    Long c = s.getSpec().getPool().getResourceSliceCount();
    return c == null ? 0 : c;
  }
}
