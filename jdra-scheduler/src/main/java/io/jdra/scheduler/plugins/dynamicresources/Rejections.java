package io.jdra.scheduler.plugins.dynamicresources;

import io.jdra.allocator.AllocationOutcome;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Node name -> why allocation failed there, as Filter finds it for one attempt. With devices in
 * use, hundreds of nodes per pod are rejected and the attempt still finds a node; only a failed
 * attempt (its FailedScheduling message) or an explanation reads these. So each rejection takes a
 * slot of an array (one atomic increment, two stores) instead of a concurrent map's hashing, node
 * and counters, and the map is made when read. Slots are made at the first rejection, for as many
 * nodes as the attempt filters; rejections past them (Filter asked again for a node) go to a map
 * that is read after the slots, so the last rejection of a node wins, as in a map.
 *
 * <p>Any Filter thread may add; readers read after Filter has finished (the scheduler joins its
 * Filter threads before it reads), so a slot taken is also written.
 */
final class Rejections {
  private final int capacity;
  private final AtomicInteger size = new AtomicInteger();

  /** Node name at 2k, its outcome at 2k + 1; null until the first rejection. */
  private volatile Object[] slots;

  private final Map<String, AllocationOutcome.Unschedulable> overflow = new ConcurrentHashMap<>();

  /** For an attempt that filters at most {@code nodes} nodes once each (more still work). */
  Rejections(int nodes) {
    this.capacity = nodes;
  }

  void put(String node, AllocationOutcome.Unschedulable outcome) {
    Object[] s = slots();
    int k = size.getAndIncrement();
    if (k < capacity) {
      s[2 * k] = node;
      s[2 * k + 1] = outcome;
    } else {
      overflow.put(node, outcome);
    }
  }

  boolean isEmpty() {
    return size.get() == 0;
  }

  /** The rejections by node name, the last one of a node winning. */
  Map<String, AllocationOutcome.Unschedulable> asMap() {
    Map<String, AllocationOutcome.Unschedulable> out = new HashMap<>();
    Object[] s = slots;
    int n = Math.min(size.get(), capacity);
    for (int k = 0; k < n; k++) {
      if (s[2 * k] instanceof String node) {
        out.put(node, (AllocationOutcome.Unschedulable) s[2 * k + 1]);
      }
    }
    out.putAll(overflow);
    return out;
  }

  private Object[] slots() {
    Object[] s = slots;
    if (s == null) {
      synchronized (this) {
        s = slots;
        if (s == null) {
          s = new Object[2 * capacity];
          slots = s;
        }
      }
    }
    return s;
  }
}
