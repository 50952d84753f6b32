package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.allocator.internal.Quantities;
import io.jdra.api.names.DeviceId;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Devices already in use on the cluster, as the scheduler derives them from allocated claims:
 * exclusively allocated devices, allocated shares of shareable devices (device + share ID), and the
 * capacity those shares consume. Results with admin access do not count. Immutable.
 */
public final class AllocatedState {
  private static final AllocatedState EMPTY = new Builder().build();

  private final Set<DeviceId> devices;
  private final Set<String> sharedIds;
  private final Set<DeviceId> sharedDevices;
  private final Map<DeviceId, Map<String, BigDecimal>> capacity;

  private AllocatedState(Builder b) {
    this.devices = Set.copyOf(b.devices);
    this.sharedIds = Set.copyOf(b.sharedIds);
    this.sharedDevices = Set.copyOf(b.sharedDevices);
    Map<DeviceId, Map<String, BigDecimal>> c = new HashMap<>();
    b.capacity.forEach((k, v) -> c.put(k, Map.copyOf(v)));
    this.capacity = Map.copyOf(c);
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

  /** Whether the device is allocated exclusively (upstream {@code AllocatedDevices.Has}). */
  public boolean isAllocatedExclusively(String driver, String pool, String device) {
    return !devices.isEmpty() && devices.contains(new DeviceId(driver, pool, device));
  }

  boolean exclusive(DeviceId key) {
    return devices.contains(key);
  }

  /**
   * Whether the device is used at all: exclusively, by a share, or with consumed capacity (upstream
   * {@code IsDeviceAllocated}).
   */
  public boolean isInUse(String driver, String pool, String device) {
    if (devices.isEmpty() && sharedDevices.isEmpty() && capacity.isEmpty()) {
      return false;
    }
    DeviceId key = new DeviceId(driver, pool, device);
    return devices.contains(key) || sharedDevices.contains(key) || capacity.containsKey(key);
  }

  /** Whether this share ID is taken on the device. */
  public boolean hasShare(String driver, String pool, String device, String shareId) {
    return sharedIds.contains(new DeviceId(driver, pool, device) + "/" + shareId);
  }

  /** Capacity consumed on a shareable device by name, or null when none is recorded. */
  public Map<String, BigDecimal> consumedCapacity(String driver, String pool, String device) {
    if (capacity.isEmpty()) {
      return null;
    }
    return capacity.get(new DeviceId(driver, pool, device));
  }

  /** Collects allocated devices; not thread-safe. */
  public static final class Builder {
    private final Set<DeviceId> devices = new HashSet<>();
    private final Set<String> sharedIds = new HashSet<>();
    private final Set<DeviceId> sharedDevices = new HashSet<>();
    private final Map<DeviceId, Map<String, BigDecimal>> capacity = new HashMap<>();

    private Builder() {}

    /** One allocation result of some claim, counted as the scheduler counts it. */
    public Builder add(DeviceRequestAllocationResult r, boolean consumableCapacity) {
      if (Boolean.TRUE.equals(r.getAdminAccess())) {
        return this;
      }
      DeviceId key = new DeviceId(r.getDriver(), r.getPool(), r.getDevice());
      if (consumableCapacity && r.getShareID() != null) {
        sharedIds.add(key + "/" + r.getShareID());
        sharedDevices.add(key);
        if (r.getConsumedCapacity() != null) {
          Map<String, BigDecimal> sum = capacity.computeIfAbsent(key, k -> new HashMap<>());
          for (Map.Entry<String, Quantity> e : r.getConsumedCapacity().entrySet()) {
            sum.merge(e.getKey(), Quantities.value(e.getValue()), BigDecimal::add);
          }
        }
        return this;
      }
      devices.add(key);
      return this;
    }

    /** An exclusively allocated device. */
    public Builder device(String driver, String pool, String device) {
      devices.add(new DeviceId(driver, pool, device));
      return this;
    }

    public AllocatedState build() {
      return new AllocatedState(this);
    }
  }
}
