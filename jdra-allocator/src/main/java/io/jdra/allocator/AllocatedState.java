package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.api.names.DeviceId;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * Devices already in use on the cluster, as the scheduler derives them from allocated claims:
 * exclusively allocated devices, allocated shares of shareable devices (device + share ID), and the
 * capacity those shares consume. Results with admin access do not count. Immutable.
 *
 * <p>Held as one {@link Use} per device in use: a large base map shared between snapshots plus a
 * small overlay of the devices that changed since the base was made (see {@link AllocatedDevices}),
 * so that taking a snapshot after one more allocation costs the overlay, not the whole cluster.
 */
public final class AllocatedState {
  private static final AllocatedState EMPTY = new AllocatedState(Map.of(), Map.of());

  /** How one device is used; immutable. */
  record Use(boolean exclusive, Set<String> shareIds, Map<String, BigDecimal> consumed) {
    /** The overlay's mark for a device that is no longer in use. */
    static final Use NONE = new Use(false, Set.of(), null);

    boolean inUse() {
      return exclusive || !shareIds.isEmpty();
    }
  }

  private final Map<DeviceId, Use> base;
  private final Map<DeviceId, Use> overlay;

  /** Both maps are never changed after this; the overlay wins. */
  AllocatedState(Map<DeviceId, Use> base, Map<DeviceId, Use> overlay) {
    this.base = base;
    this.overlay = overlay;
  }

  /** Nothing allocated. */
  public static AllocatedState empty() {
    return EMPTY;
  }

  /**
   * What the allocation results of these claims use (claims without {@code status.allocation} are
   * skipped). With consumable capacity off, shared results count as exclusive, as upstream.
   */
  public static AllocatedState fromClaims(
      Collection<ResourceClaim> claims, AllocatorFeatures features) {
    Builder b = new Builder();
    for (ResourceClaim claim : claims) {
      if (claim.getStatus() == null
          || claim.getStatus().getAllocation() == null
          || claim.getStatus().getAllocation().getDevices() == null
          || claim.getStatus().getAllocation().getDevices().getResults() == null) {
        continue;
      }
      for (DeviceRequestAllocationResult r :
          claim.getStatus().getAllocation().getDevices().getResults()) {
        b.add(r, features.consumableCapacity());
      }
    }
    return b.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  private Use use(DeviceId key) {
    if (!overlay.isEmpty()) {
      Use u = overlay.get(key);
      if (u != null) {
        return u == Use.NONE ? null : u;
      }
    }
    return base.isEmpty() ? null : base.get(key);
  }

  /** Whether the device is allocated exclusively (upstream {@code AllocatedDevices.Has}). */
  public boolean isAllocatedExclusively(String driver, String pool, String device) {
    return isAllocatedExclusively(new DeviceId(driver, pool, device));
  }

  /** Whether the device is allocated exclusively (upstream {@code AllocatedDevices.Has}). */
  public boolean isAllocatedExclusively(DeviceId key) {
    Use u = use(key);
    return u != null && u.exclusive();
  }

  /**
   * Whether the device is used at all: exclusively, by a share, or with consumed capacity (upstream
   * {@code IsDeviceAllocated}).
   */
  public boolean isInUse(String driver, String pool, String device) {
    return isInUse(new DeviceId(driver, pool, device));
  }

  /** As {@link #isInUse(String, String, String)}. */
  public boolean isInUse(DeviceId key) {
    Use u = use(key);
    return u != null && u.inUse();
  }

  /** Whether this share ID is taken on the device. */
  public boolean hasShare(String driver, String pool, String device, String shareId) {
    Use u = use(new DeviceId(driver, pool, device));
    return u != null && u.shareIds().contains(shareId);
  }

  /** Capacity consumed on a shareable device by name, or null when none is recorded. */
  public Map<String, BigDecimal> consumedCapacity(String driver, String pool, String device) {
    Use u = use(new DeviceId(driver, pool, device));
    return u == null ? null : u.consumed();
  }

  /** Collects allocated devices; not thread-safe. */
  public static final class Builder {
    private final AllocatedDevices devices = new AllocatedDevices();

    private Builder() {}

    /** One allocation result of some claim, counted as the scheduler counts it. */
    public Builder add(DeviceRequestAllocationResult r, boolean consumableCapacity) {
      devices.add(r, consumableCapacity);
      return this;
    }

    /** An exclusively allocated device. */
    public Builder device(String driver, String pool, String device) {
      devices.addExclusive(new DeviceId(driver, pool, device));
      return this;
    }

    public AllocatedState build() {
      return devices.snapshot();
    }
  }
}
