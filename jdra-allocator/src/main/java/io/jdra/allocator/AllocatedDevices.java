package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
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
import java.util.Objects;
import java.util.Set;

/**
 * The devices in use, kept up to date one allocation result at a time (upstream's scheduler keeps
 * its {@code allocatedDevices} from claim events in the same way), with cheap immutable {@link
 * AllocatedState} snapshots: a snapshot shares a base map with the previous ones and copies only
 * the devices that changed since that base was made; once those are many, the base is made anew (so
 * a snapshot costs O(changes) and the rebuild O(devices) every O(devices / 16) changes).
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
    Use use;

    boolean empty() {
      return exclusive == 0 && shares.isEmpty() && consumed.isEmpty();
    }

    Use use() {
      if (use == null) {
        Map<String, BigDecimal> sum = null;
        if (!consumed.isEmpty()) {
          Map<String, BigDecimal> s = new HashMap<>();
          for (Map<String, BigDecimal> part : consumed) {
            part.forEach((k, v) -> s.merge(k, v, BigDecimal::add));
          }
          sum = Map.copyOf(s);
        }
        use = new Use(exclusive > 0, Set.copyOf(shares.keySet()), sum);
      }
      return use;
    }
  }

  private final Map<DeviceId, Counts> counts = new HashMap<>();
  private final Set<DeviceId> dirty = new HashSet<>();
  private Map<DeviceId, Use> base = Map.of();
  private final Map<DeviceId, Use> overlay = new HashMap<>();
  private AllocatedState last = AllocatedState.empty();

  /** One allocation result of some claim, counted as the scheduler counts it. */
  public void add(DeviceRequestAllocationResult r, boolean consumableCapacity) {
    change(r, consumableCapacity, true);
  }

  /** Undoes {@link #add} of an equal result. */
  public void remove(DeviceRequestAllocationResult r, boolean consumableCapacity) {
    change(r, consumableCapacity, false);
  }

  void addExclusive(DeviceId key) {
    counts(key).exclusive++;
  }

  private void change(DeviceRequestAllocationResult r, boolean consumableCapacity, boolean add) {
    if (Boolean.TRUE.equals(r.getAdminAccess())) {
      return;
    }
    DeviceId key = new DeviceId(r.getDriver(), r.getPool(), r.getDevice());
    Counts c = counts(key);
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
    if (c.empty()) {
      counts.remove(key);
    }
  }

  private static Map<String, BigDecimal> values(DeviceRequestAllocationResult r) {
    Map<String, BigDecimal> out = new HashMap<>();
    for (Map.Entry<String, Quantity> e : r.getConsumedCapacity().entrySet()) {
      out.put(e.getKey(), Quantities.value(e.getValue()));
    }
    return out;
  }

  private Counts counts(DeviceId key) {
    dirty.add(key);
    Counts c = counts.computeIfAbsent(key, k -> new Counts());
    c.use = null;
    return c;
  }

  /** The devices in use now; the same object while nothing changed. */
  public AllocatedState snapshot() {
    if (dirty.isEmpty()) {
      return last;
    }
    for (DeviceId key : dirty) {
      Counts c = counts.get(key);
      Use now = c == null ? null : c.use();
      if (Objects.equals(now, base.get(key))) {
        overlay.remove(key);
      } else {
        overlay.put(key, now == null ? Use.NONE : now);
      }
    }
    dirty.clear();
    if (overlay.size() > 64 + counts.size() / 16) {
      Map<DeviceId, Use> fresh = new HashMap<>(Math.max(16, counts.size() * 4 / 3 + 1));
      counts.forEach((k, c) -> fresh.put(k, c.use()));
      base = fresh;
      overlay.clear();
    }
    last = new AllocatedState(base, overlay.isEmpty() ? Map.of() : new HashMap<>(overlay));
    return last;
  }
}
