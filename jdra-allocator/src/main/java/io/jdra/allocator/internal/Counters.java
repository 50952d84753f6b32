package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.AllocatedState;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Shared counters (DRAPartitionableDevices): what a pool's counter sets have left once the devices
 * allocated before this allocation are accounted for, and what one device consumes, both as exact
 * values by counter set and counter name.
 */
final class Counters {
  private Counters() {}

  /**
   * The pool's counter sets minus what its devices in use consume (counters a set does not define
   * are ignored). Immutable.
   */
  static Map<String, Map<String, BigDecimal>> available(
      PoolInfo pool, Map<String, AllocatedState.Use> inUse) {
    Map<String, Map<String, BigDecimal>> out = new HashMap<>();
    for (CounterSet cs : pool.counterSets.values()) {
      Map<String, BigDecimal> counters = new HashMap<>();
      if (cs.getCounters() != null) {
        cs.getCounters().forEach((k, v) -> counters.put(k, Quantities.value(v.getValue())));
      }
      out.put(cs.getName(), counters);
    }
    if (!inUse.isEmpty()) {
      for (List<ResourceSlice> group :
          List.of(pool.slicesTargetingNode, pool.slicesNotTargetingNode)) {
        for (ResourceSlice slice : group) {
          for (Device d : NodeMatcher.list(slice.getSpec().getDevices())) {
            AllocatedState.Use use = inUse.get(d.getName());
            if (use == null || !use.inUse()) {
              continue;
            }
            for (DeviceCounterConsumption dc : NodeMatcher.list(d.getConsumesCounters())) {
              Map<String, BigDecimal> set = out.get(dc.getCounterSet());
              if (set == null || dc.getCounters() == null) {
                continue;
              }
              dc.getCounters()
                  .forEach((name, counter) -> {
                    if (set.containsKey(name)) {
                      set.merge(
                          name, Quantities.value(counter.getValue()).negate(), BigDecimal::add);
                    }
                  });
            }
          }
        }
      }
    }
    Map<String, Map<String, BigDecimal>> frozen = new HashMap<>();
    out.forEach((k, v) -> frozen.put(k, Map.copyOf(v)));
    return Map.copyOf(frozen);
  }

  /** What the device consumes, by counter set and counter; empty when nothing. Immutable. */
  static Map<String, Map<String, BigDecimal>> consumption(Device device) {
    List<DeviceCounterConsumption> list = NodeMatcher.list(device.getConsumesCounters());
    if (list.isEmpty()) {
      return Map.of();
    }
    Map<String, Map<String, BigDecimal>> out = new HashMap<>();
    for (DeviceCounterConsumption dc : list) {
      Map<String, BigDecimal> set = out.computeIfAbsent(dc.getCounterSet(), k -> new HashMap<>());
      if (dc.getCounters() != null) {
        dc.getCounters()
            .forEach((name, c) -> set.merge(name, Quantities.value(c.getValue()), BigDecimal::add));
      }
    }
    Map<String, Map<String, BigDecimal>> frozen = new HashMap<>();
    out.forEach((k, v) -> frozen.put(k, Map.copyOf(v)));
    return Map.copyOf(frozen);
  }

  /**
   * Whether every counter of the pool stays within what is available once {@code consumed} (what
   * the search has taken so far, may be null) and the device's own consumption are added; the
   * search's check, so "does not fit even alone" means it never fits in this allocation.
   */
  static boolean fits(
      Map<String, Map<String, BigDecimal>> available,
      Map<String, Map<String, BigDecimal>> consumed,
      Map<String, Map<String, BigDecimal>> device) {
    for (Map.Entry<String, Map<String, BigDecimal>> set : available.entrySet()) {
      Map<String, BigDecimal> used = consumed == null ? null : consumed.get(set.getKey());
      Map<String, BigDecimal> mine = device.get(set.getKey());
      for (Map.Entry<String, BigDecimal> counter : set.getValue().entrySet()) {
        BigDecimal u = used == null ? null : used.get(counter.getKey());
        BigDecimal m = mine == null ? null : mine.get(counter.getKey());
        BigDecimal total = u == null ? (m == null ? BigDecimal.ZERO : m) : m == null ? u : u.add(m);
        if (counter.getValue().compareTo(total) < 0) {
          return false;
        }
      }
    }
    return true;
  }
}
