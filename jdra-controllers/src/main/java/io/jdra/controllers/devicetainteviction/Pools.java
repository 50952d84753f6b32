package io.jdra.controllers.devicetainteviction;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.api.resourceclaim.DeviceTolerations;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The ResourceSlices the controller knows, by pool ({@code driver} + pool name). Only the slices of
 * a pool's highest generation count, as everywhere in DRA: older ones are leftovers of an update in
 * progress. Not thread-safe (the controller's lock guards it).
 */
final class Pools {
  /** A pool: identified by driver and name. */
  record PoolId(String driver, String pool) {}

  /** A device of a current slice. */
  record SliceDevice(ResourceSlice slice, Device device) {}

  private static final class Pool {
    final Map<String, ResourceSlice> slices = new LinkedHashMap<>();
    long maxGeneration = Long.MIN_VALUE;

    /** Devices of the slices with maxGeneration, by name; rebuilt on every change. */
    Map<String, SliceDevice> devices = Map.of();

    void reindex() {
      maxGeneration = Long.MIN_VALUE;
      for (ResourceSlice s : slices.values()) {
        maxGeneration = Math.max(maxGeneration, generation(s));
      }
      Map<String, SliceDevice> byName = new HashMap<>();
      for (ResourceSlice s : slices.values()) {
        if (generation(s) != maxGeneration) {
          continue;
        }
        for (Device d : s.getSpec().getDevices()) {
          byName.putIfAbsent(d.getName(), new SliceDevice(s, d));
        }
      }
      devices = byName;
    }
  }

  private final Map<PoolId, Pool> pools = new HashMap<>();

  static PoolId poolId(ResourceSlice slice) {
    return new PoolId(slice.getSpec().getDriver(), slice.getSpec().getPool().getName());
  }

  private static long generation(ResourceSlice s) {
    Long g = s.getSpec().getPool().getGeneration();
    return g == null ? 0 : g;
  }

  /**
   * Replaces {@code oldSlice} by {@code newSlice} (either may be null) and returns the names of the
   * devices of that pool whose NoExecute taints changed, sorted.
   */
  Set<String> update(ResourceSlice oldSlice, ResourceSlice newSlice) {
    ResourceSlice any = newSlice != null ? newSlice : oldSlice;
    PoolId id = poolId(any);
    Pool pool = pools.computeIfAbsent(id, k -> new Pool());
    Map<String, List<DeviceTaint>> before = noExecuteTaints(pool);
    if (oldSlice != null) {
      pool.slices.remove(oldSlice.getMetadata().getName());
    }
    if (newSlice != null) {
      pool.slices.put(newSlice.getMetadata().getName(), newSlice);
    }
    pool.reindex();
    if (pool.slices.isEmpty()) {
      pools.remove(id);
    }
    Map<String, List<DeviceTaint>> after = noExecuteTaints(pool);
    Set<String> changed = new TreeSet<>();
    for (var e : before.entrySet()) {
      if (!e.getValue().equals(after.get(e.getKey()))) {
        changed.add(e.getKey());
      }
    }
    for (String name : after.keySet()) {
      if (!before.containsKey(name)) {
        changed.add(name);
      }
    }
    return changed;
  }

  /** The device in the current slices of its pool, or null. */
  SliceDevice device(String driver, String pool, String device) {
    Pool p = pools.get(new PoolId(driver, pool));
    return p == null ? null : p.devices.get(device);
  }

  /** Every device of every pool's current slices, for counting. */
  List<Map.Entry<PoolId, String>> allDevices() {
    List<Map.Entry<PoolId, String>> out = new ArrayList<>();
    pools.forEach((id, p) -> p.devices.keySet().forEach(d -> out.add(Map.entry(id, d))));
    return out;
  }

  /** Every slice the controller holds (all generations). */
  List<ResourceSlice> slices() {
    List<ResourceSlice> out = new ArrayList<>();
    pools.values().forEach(p -> out.addAll(p.slices.values()));
    return out;
  }

  private static Map<String, List<DeviceTaint>> noExecuteTaints(Pool pool) {
    Map<String, List<DeviceTaint>> out = new HashMap<>();
    for (SliceDevice sd : pool.devices.values()) {
      List<DeviceTaint> taints = new ArrayList<>();
      for (DeviceTaint t : sd.device().getTaints()) {
        if (DeviceTolerations.EFFECT_NO_EXECUTE.equals(t.getEffect())) {
          taints.add(t);
        }
      }
      if (!taints.isEmpty()) {
        out.put(sd.device().getName(), taints);
      }
    }
    return out;
  }
}
