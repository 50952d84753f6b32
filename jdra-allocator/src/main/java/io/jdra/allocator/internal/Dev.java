package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.AllocatedState;
import io.jdra.api.names.DeviceId;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** A candidate device in search order, with what the search keeps asking about it. */
final class Dev {
  final int index;
  final DevFacts facts;
  final DeviceId id;
  final Device device;
  final ResourceSlice slice;
  final PoolInfo pool;

  /** Allocated exclusively before this allocation (upstream {@code AllocatedDevices.Has}). */
  final boolean allocated;

  /** Allocated in any way (exclusive, share or consumed capacity). */
  final boolean inUseAtAll;

  final boolean allowMultipleAllocations;

  /** {@link DevFacts#taints}: null when the device has none. */
  final List<DeviceTaint> taints;

  /** Capacity consumed by shares allocated before this allocation, or null. */
  final Map<String, BigDecimal> consumed;

  /**
   * What the device's pool has left of its shared counters before this allocation, or null when the
   * device consumes none (or partitionable devices are off).
   */
  final Map<String, Map<String, BigDecimal>> poolCounters;

  /** Consumes more than its pool has left even alone: no pick of this allocation can take it. */
  final boolean countersNeverFit;

  /** {@link DevFacts#consumesCounters}, asked of every candidate. */
  final boolean consumesCounters;

  /**
   * The last {@link #attribute} answer. Kept here, not only in the facts: the search reads this
   * object for every candidate anyway, while the facts and their attribute cache would be two more
   * cache misses per candidate on a cold node. Unsynchronized: the answer is immutable (final
   * fields), so a thread sees null, an older answer or a newer one, each complete.
   */
  private DevFacts.Attribute attribute;

  /** {@link DevFacts#fitsWhenUnused}, read through as {@link #attribute} is. */
  private Capacity.Fit fitsWhenUnused;

  Dev(
      int index,
      DevFacts facts,
      AllocatedState.Use use,
      Map<String, Map<String, BigDecimal>> poolCounters) {
    this.index = index;
    this.facts = facts;
    this.id = facts.id;
    this.device = facts.device;
    this.slice = facts.slice;
    this.pool = facts.pool;
    this.allocated = use != null && use.exclusive();
    this.inUseAtAll = use != null && use.inUse();
    this.consumed = use == null ? null : use.consumed();
    this.allowMultipleAllocations = facts.allowMultipleAllocations;
    this.taints = facts.taints;
    this.poolCounters = poolCounters;
    this.consumesCounters = facts.consumesCounters();
    this.countersNeverFit =
        poolCounters != null && !Counters.fits(poolCounters, null, facts.counterConsumption());
  }

  /**
   * {@link DevFacts#attribute}; {@code qualifiedName} should be interned (constraints intern it).
   */
  DevFacts.Attribute attribute(String qualifiedName) {
    DevFacts.Attribute a = attribute;
    if (a == null || a.name() != qualifiedName) {
      a = facts.attribute(qualifiedName);
      attribute = a;
    }
    return a;
  }

  /** {@link DevFacts#fitsWhenUnused}. */
  Capacity.Fit fitsWhenUnused() {
    Capacity.Fit f = fitsWhenUnused;
    if (f == null) {
      f = facts.fitsWhenUnused();
      fitsWhenUnused = f;
    }
    return f;
  }

  Object view(SelectorEngine engine) {
    return facts.view(engine);
  }

  boolean perDeviceNodeSelection() {
    return Boolean.TRUE.equals(slice.getSpec().getPerDeviceNodeSelection());
  }

  @Override
  public String toString() {
    return id.toString();
  }
}
