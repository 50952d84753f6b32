package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.api.names.DeviceId;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
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

  /**
   * A resource pool: its driver and its name. Equality is written out and the hash kept: the
   * allocator looks a pool up once per pool and node, with the key its pool view made once.
   */
  public static final class PoolKey {
    private final String driver;
    private final String pool;
    private final int hash;

    private PoolKey(String driver, String pool) {
      this.driver = driver;
      this.pool = pool;
      this.hash = 31 * Objects.hashCode(driver) + Objects.hashCode(pool);
    }

    public static PoolKey of(String driver, String pool) {
      return new PoolKey(driver, pool);
    }

    public String driver() {
      return driver;
    }

    public String pool() {
      return pool;
    }

    @Override
    public boolean equals(Object o) {
      return o == this
          || o instanceof PoolKey k
              && k.hash == hash
              && Objects.equals(k.driver, driver)
              && Objects.equals(k.pool, pool);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public String toString() {
      return driver + "/" + pool;
    }
  }

  /**
   * How one device is used: allocated exclusively, the share IDs allocated on it, and the capacity
   * those shares consume by name (null when none is recorded). Immutable.
   */
  public record Use(boolean exclusive, Set<String> shareIds, Map<String, BigDecimal> consumed) {
    /** In use at all: exclusively or by a share (upstream {@code IsDeviceAllocated}). */
    public boolean inUse() {
      return exclusive || !shareIds.isEmpty();
    }

    /**
     * Written out: a snapshot compares a changed pool's uses with its base's, and a record's
     * generated equality goes through method handles, which C1-compiled code calls slowly.
     */
    @Override
    public boolean equals(Object o) {
      return o == this
          || o instanceof Use u
              && u.exclusive == exclusive
              && u.shareIds.equals(shareIds)
              && Objects.equals(u.consumed, consumed);
    }

    @Override
    public int hashCode() {
      return 31 * (31 * Boolean.hashCode(exclusive) + shareIds.hashCode())
          + Objects.hashCode(consumed);
    }
  }

  /** Pool -> device name -> use; a pool without devices in use has no entry or an empty map. */
  private final Map<PoolKey, Map<String, Use>> base;

  private final Map<PoolKey, Map<String, Use>> overlay;

  /**
   * A bit per overlay key hash ({@link #OVERLAY_BITS} bits): a pool whose bit is clear is not in
   * the overlay, so most lookups skip probing it; null when the overlay is empty.
   */
  private final long[] overlayBits;

  private static final int OVERLAY_BITS = 512;

  /** Neither map nor any of their values is changed after this; the overlay wins. */
  AllocatedState(Map<PoolKey, Map<String, Use>> base, Map<PoolKey, Map<String, Use>> overlay) {
    this.base = base;
    this.overlay = overlay;
    if (overlay.isEmpty()) {
      this.overlayBits = null;
    } else {
      long[] bits = new long[OVERLAY_BITS / 64];
      for (PoolKey k : overlay.keySet()) {
        int b = bit(k);
        bits[b >>> 6] |= 1L << b;
      }
      this.overlayBits = bits;
    }
  }

  private static int bit(PoolKey k) {
    int h = k.hash;
    return (h ^ (h >>> 9) ^ (h >>> 18)) & (OVERLAY_BITS - 1);
  }

  /**
   * A pool key that remembers what it was last found as in a snapshot's base map. Snapshots share
   * their base until enough pools changed, so an allocator that asks for the same pools on every
   * scheduling cycle (one view per node, each with its lookup) finds an unchanged pool without
   * hashing into the base, which is the size of the cluster and cold in the caches. Thread-safe.
   */
  public static final class PoolLookup {
    private final PoolKey key;
    private volatile Hit last;

    private record Hit(Map<PoolKey, Map<String, Use>> base, Map<String, Use> uses) {}

    public PoolLookup(PoolKey key) {
      this.key = key;
    }

    public PoolKey key() {
      return key;
    }
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

  /**
   * The devices of one pool that are in use, by name (empty when none is); immutable. The allocator
   * asks this once per pool and node.
   */
  public Map<String, Use> pool(String driver, String pool) {
    return pool(new PoolKey(driver, pool));
  }

  /** As {@link #pool(String, String)}, with a key made once. */
  public Map<String, Use> pool(PoolKey key) {
    if (!overlay.isEmpty()) {
      Map<String, Use> m = overlay.get(key);
      if (m != null) {
        return m;
      }
    }
    Map<String, Use> m = base.isEmpty() ? null : base.get(key);
    return m == null ? Map.of() : m;
  }

  /** As {@link #pool(PoolKey)}, remembering the base map's answer in the lookup. */
  public Map<String, Use> pool(PoolLookup lookup) {
    PoolKey key = lookup.key;
    if (overlayBits != null) {
      int b = bit(key);
      if ((overlayBits[b >>> 6] & (1L << b)) != 0) {
        Map<String, Use> m = overlay.get(key);
        if (m != null) {
          return m;
        }
      }
    }
    PoolLookup.Hit h = lookup.last;
    if (h != null && h.base() == base) {
      return h.uses();
    }
    Map<String, Use> m = base.isEmpty() ? null : base.get(key);
    if (m == null) {
      m = Map.of();
    }
    lookup.last = new PoolLookup.Hit(base, m);
    return m;
  }

  /**
   * The base map this snapshot shares with others, as an opaque token for {@link #inBase}: a caller
   * that derived something from a pool's devices in use while the pool was not in the overlay may
   * reuse it while the token stays the same and the pool stays out of the overlay.
   */
  public Object baseToken() {
    return base;
  }

  /** The overlay bit of a pool key, for {@link #inBase}; computed once per key. */
  public static int overlayBit(PoolKey key) {
    return bit(key);
  }

  /**
   * Whether this snapshot's base is {@code token} and the pool with this {@link #overlayBit} is
   * certainly not in the overlay: then its devices in use are the base's, as when the token was
   * taken. Reads no map and not the key, which a caller asking for every node's pool finds cold.
   */
  public boolean inBase(Object token, int overlayBit) {
    return token == base
        && (overlayBits == null || (overlayBits[overlayBit >>> 6] & (1L << overlayBit)) == 0);
  }

  /** How the device is used, or null when it is free (one lookup for all the questions). */
  public Use use(DeviceId key) {
    return pool(key.driver(), key.pool()).get(key.device());
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
