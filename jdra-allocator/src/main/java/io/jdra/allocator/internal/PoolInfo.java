package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.AllocatedState;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * One resource pool as seen from a node: the slices of its newest generation that target the node
 * (sorted by name), the others (for counters), its counter sets, and whether it is usable.
 */
final class PoolInfo {
  final String driver;
  final String name;

  /** The key of the pool's devices in use ({@link AllocatedState#pool(AllocatedState.PoolKey)}). */
  final AllocatedState.PoolKey key;

  /** The key with its last lookup remembered (this view asks once per allocation). */
  final AllocatedState.PoolLookup lookup;

  final boolean incomplete;
  final String invalidReason;
  final List<ResourceSlice> slicesTargetingNode;
  final List<ResourceSlice> slicesNotTargetingNode;
  final Map<String, CounterSet> counterSets;

  /**
   * Position in the gathered view's pool list, so a search can keep per-pool state in an array; set
   * once by {@link Slices} before the view is shared.
   */
  int ordinal = -1;

  /** The last {@link #availableCounters} result and the in-use map it was computed for. */
  private record Available(
      Map<String, AllocatedState.Use> inUse, Map<String, Map<String, BigDecimal>> counters) {}

  private volatile Available available;

  /** {@link AllocatedState#overlayBit} of {@link #key}. */
  private final int overlayBit;

  /**
   * The last {@link #devices} result and what it was made for: the in-use map, and the base token
   * of the snapshot it came from when it was that snapshot's base map (else null).
   */
  private record Devs(
      Object base, Map<String, AllocatedState.Use> inUse, boolean partitionable, Dev[] devs) {}

  private volatile Devs devs;

  PoolInfo(
      String driver,
      String name,
      boolean incomplete,
      String invalidReason,
      List<ResourceSlice> slicesTargetingNode,
      List<ResourceSlice> slicesNotTargetingNode,
      Map<String, CounterSet> counterSets) {
    this.driver = driver;
    this.name = name;
    this.key = AllocatedState.PoolKey.of(driver, name);
    this.lookup = new AllocatedState.PoolLookup(key);
    this.overlayBit = AllocatedState.overlayBit(key);
    this.incomplete = incomplete;
    this.invalidReason = invalidReason;
    this.slicesTargetingNode = slicesTargetingNode;
    this.slicesNotTargetingNode = slicesNotTargetingNode;
    this.counterSets = counterSets;
  }

  static PoolInfo incomplete(String driver, String name) {
    return new PoolInfo(driver, name, true, null, List.of(), List.of(), Map.of());
  }

  static PoolInfo invalid(String driver, String name, String reason) {
    return new PoolInfo(driver, name, false, reason, List.of(), List.of(), Map.of());
  }

  /**
   * {@link Counters#available} for the pool's devices in use, remembered for the last in-use map:
   * snapshots share a pool's map until one of its devices changes, so a pool whose allocations did
   * not change is not counted again by every scheduling cycle.
   */
  Map<String, Map<String, BigDecimal>> availableCounters(Map<String, AllocatedState.Use> inUse) {
    Available a = available;
    if (a == null || a.inUse() != inUse) {
      a = new Available(inUse, Counters.available(this, inUse));
      available = a;
    }
    return a.counters();
  }

  /**
   * The search's view of this pool's devices (run {@code run} of {@code view}, which must be this
   * pool's, so their indexes stay the same) for the devices in use in {@code state}: made anew only
   * when the pool's in-use map changed. The array must not be modified. The view's arrays are read
   * only then: the usual answer touches this pool and the state alone.
   */
  Dev[] devices(AllocatedState state, Slices.Gathered view, int run, boolean partitionable) {
    Devs d = devs;
    // Snapshots share their base for many scheduling cycles: then the answer is known without
    // looking the pool up (the lookup's objects are as cold as this one, once per node and pod).
    if (d != null
        && d.base() != null
        && d.partitionable() == partitionable
        && state.inBase(d.base(), overlayBit)) {
      return d.devs();
    }
    Map<String, AllocatedState.Use> inUse = state.pool(lookup);
    Object base = state.inBase(state.baseToken(), overlayBit) ? state.baseToken() : null;
    if (d != null && d.inUse() == inUse && d.partitionable() == partitionable) {
      if (d.base() != base) {
        devs = new Devs(base, inUse, partitionable, d.devs());
      }
      return d.devs();
    }
    DevFacts[] facts = view.devices();
    int from = view.runStarts()[run];
    int to = view.runStarts()[run + 1];
    Dev[] out = new Dev[to - from];
    for (int i = from; i < to; i++) {
      DevFacts f = facts[i];
      Map<String, Map<String, BigDecimal>> counters =
          partitionable && f.consumesCounters() ? availableCounters(inUse) : null;
      out[i - from] = new Dev(i, f, inUse.isEmpty() ? null : inUse.get(f.id.device()), counters);
    }
    devs = new Devs(base, inUse, partitionable, out);
    return out;
  }

  boolean invalid() {
    return invalidReason != null;
  }

  /** {@code driver/pool}, as upstream prints a pool ID. */
  public String id() {
    return driver + "/" + name;
  }

  @Override
  public String toString() {
    return id();
  }
}
