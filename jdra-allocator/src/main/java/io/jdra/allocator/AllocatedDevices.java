package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.jdra.allocator.AllocatedState.PoolKey;
import io.jdra.allocator.AllocatedState.Use;
import io.jdra.allocator.internal.Quantities;
import io.jdra.api.names.DeviceId;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The devices in use, kept up to date one allocation result at a time (upstream's scheduler keeps
 * its {@code allocatedDevices} from claim events in the same way), with cheap immutable {@link
 * AllocatedState} snapshots: a snapshot shares a base map of pools with the previous ones and
 * copies only the pools that changed since that base was made; once those are many, the base is
 * made anew from the unchanged pools' maps and the changed ones (so a snapshot costs O(changed
 * pools), and the rebuild O(pools) every O(pools / 16) changes).
 *
 * <p>Results are counted, so removing one of two results on the same device leaves it in use.
 * Remove exactly what was added (same result, same {@code consumableCapacity}). Not thread-safe:
 * callers hold their own lock; snapshots may then be read from any thread.
 */
public final class AllocatedDevices {
  /** How often a device is used, by whom it does not matter. */
  private static final class Counts {
    int exclusive;
    final Map<String, Integer> shares = new LinkedHashMap<>();
    final List<Map<String, BigDecimal>> consumed = new ArrayList<>(0);

    boolean empty() {
      return exclusive == 0 && shares.isEmpty() && consumed.isEmpty();
    }

    Use use() {
      Map<String, BigDecimal> sum = null;
      if (!consumed.isEmpty()) {
        Map<String, BigDecimal> s = new HashMap<>();
        for (Map<String, BigDecimal> part : consumed) {
          part.forEach((k, v) -> s.merge(k, v, BigDecimal::add));
        }
        sum = Map.copyOf(s);
      }
      return new Use(exclusive > 0, Set.copyOf(shares.keySet()), sum);
    }
  }

  private final Map<PoolKey, Map<String, Counts>> counts = new HashMap<>();
  private final Set<PoolKey> dirty = new HashSet<>();
  private Map<PoolKey, Map<String, Use>> base = Map.of();
  private final Map<PoolKey, Map<String, Use>> overlay = new HashMap<>();
  private AllocatedState last = AllocatedState.empty();

  /** One allocation result of some claim, counted as the scheduler counts it. */
  public void add(DeviceRequestAllocationResult r, boolean consumableCapacity) {
    change(r, consumableCapacity, true);
  }

  /** Undoes {@link #add} of an equal result. */
  public void remove(DeviceRequestAllocationResult r, boolean consumableCapacity) {
    change(r, consumableCapacity, false);
  }

  void addExclusive(DeviceId id) {
    counts(id).exclusive++;
  }

  private void change(DeviceRequestAllocationResult r, boolean consumableCapacity, boolean add) {
    if (Boolean.TRUE.equals(r.getAdminAccess())) {
      return;
    }
    DeviceId id = new DeviceId(r.getDriver(), r.getPool(), r.getDevice());
    Counts c = counts(id);
    if (consumableCapacity && r.getShareID() != null) {
      Map<String, BigDecimal> part = r.getConsumedCapacity() == null ? null : values(r);
      if (add) {
        c.shares.merge(r.getShareID(), 1, Integer::sum);
        if (part != null) {
          c.consumed.add(part);
        }
      } else {
        c.shares.computeIfPresent(r.getShareID(), (k, n) -> n == 1 ? null : n - 1);
        if (part != null) {
          c.consumed.remove(part);
        }
      }
    } else if (add) {
      c.exclusive++;
    } else if (c.exclusive > 0) {
      c.exclusive--;
    }
  }

  private static Map<String, BigDecimal> values(DeviceRequestAllocationResult r) {
    Map<String, BigDecimal> out = new HashMap<>();
    for (Map.Entry<String, Quantity> e : r.getConsumedCapacity().entrySet()) {
      out.put(e.getKey(), Quantities.value(e.getValue()));
    }
    return out;
  }

  private Counts counts(DeviceId id) {
    PoolKey pool = PoolKey.of(id.driver(), id.pool());
    dirty.add(pool);
    return counts
        .computeIfAbsent(pool, k -> new HashMap<>())
        .computeIfAbsent(id.device(), k -> new Counts());
  }

  /** The devices in use now; the same object while nothing changed. */
  public AllocatedState snapshot() {
    if (dirty.isEmpty()) {
      return last;
    }
    for (PoolKey pool : dirty) {
      Map<String, Use> now = poolUse(pool);
      if (now.equals(base.getOrDefault(pool, Map.of()))) {
        overlay.remove(pool);
      } else {
        overlay.put(pool, now);
      }
    }
    dirty.clear();
    if (overlay.size() > 16 + counts.size() / 16) {
      Map<PoolKey, Map<String, Use>> fresh = new HashMap<>(base);
      overlay.forEach((pool, m) -> {
        if (m.isEmpty()) {
          fresh.remove(pool);
        } else {
          fresh.put(pool, m);
        }
      });
      base = fresh;
      overlay.clear();
    }
    // An immutable copy: cheaper to make than a HashMap (one array) and to look pools up in.
    last = new AllocatedState(base, overlay.isEmpty() ? Map.of() : Map.copyOf(overlay));
    return last;
  }

  /** The pool's devices in use, from the counts; drops counts that reached zero. */
  private Map<String, Use> poolUse(PoolKey pool) {
    Map<String, Counts> devices = counts.get(pool);
    if (devices == null) {
      return Map.of();
    }
    devices.values().removeIf(Counts::empty);
    if (devices.isEmpty()) {
      counts.remove(pool);
      return Map.of();
    }
    Map<String, Use> out = new HashMap<>(devices.size() * 4 / 3 + 1);
    devices.forEach((name, c) -> out.put(name, c.use()));
    return Map.copyOf(out);
  }
}
