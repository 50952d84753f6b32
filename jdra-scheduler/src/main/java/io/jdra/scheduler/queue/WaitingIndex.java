package io.jdra.scheduler.queue;

import io.jdra.scheduler.framework.QueuedPodInfo;
import io.jdra.scheduler.framework.QueueingHint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The unschedulable pool's pods indexed by the keys of the objects they wait for, one index per
 * {@link QueueingHint.Narrowing} the plugins registered. With it an event whose hints all narrow (a
 * claim created for one pod) looks at the pods waiting for that object, not at every waiting pod:
 * in a burst of pods with claims, thousands wait for their claims at once and each claim event
 * asked every one of them. Every pod in the pool has a gating or a rejecting plugin (the queue
 * sends a pod without one to backoffQ), so only those plugins' hints can move it. Not thread-safe:
 * the queue uses it under its lock.
 */
final class WaitingIndex {
  private record Entry(long seq, List<Map.Entry<QueueingHint.Narrowing, String>> keys) {}

  private final List<QueueingHint.Narrowing> narrowings;
  private final Map<QueueingHint.Narrowing, Map<String, Set<QueuedPodInfo>>> byKey =
      new IdentityHashMap<>();
  private final Map<String, Entry> entries = new HashMap<>();
  private long nextSeq;

  WaitingIndex(List<QueueingHint.Narrowing> narrowings) {
    this.narrowings = List.copyOf(narrowings);
    for (QueueingHint.Narrowing n : this.narrowings) {
      byKey.put(n, new HashMap<>());
    }
  }

  /** The pod entered the pool: indexed under its current keys, last in pool order. */
  void add(QueuedPodInfo p) {
    index(p, nextSeq++);
  }

  /** The pod's object changed while in the pool: its keys again, its place in pool order kept. */
  void reindex(QueuedPodInfo p) {
    Entry e = unindex(p);
    index(p, e == null ? nextSeq++ : e.seq());
  }

  /** The pod left the pool. */
  void remove(QueuedPodInfo p) {
    unindex(p);
  }

  private Entry unindex(QueuedPodInfo p) {
    Entry e = entries.remove(p.uid());
    if (e == null) {
      return null;
    }
    for (Map.Entry<QueueingHint.Narrowing, String> k : e.keys()) {
      Map<String, Set<QueuedPodInfo>> index = byKey.get(k.getKey());
      Set<QueuedPodInfo> pods = index.get(k.getValue());
      if (pods != null && pods.remove(p) && pods.isEmpty()) {
        index.remove(k.getValue());
      }
    }
    return e;
  }

  private void index(QueuedPodInfo p, long seq) {
    List<Map.Entry<QueueingHint.Narrowing, String>> keys = new ArrayList<>(2);
    for (QueueingHint.Narrowing n : narrowings) {
      Map<String, Set<QueuedPodInfo>> index = byKey.get(n);
      n.podKeys(
          p.podInfo().pod(),
          key -> {
            if (index.computeIfAbsent(key, k -> new LinkedHashSet<>(2)).add(p)) {
              keys.add(Map.entry(n, key));
            }
          });
    }
    entries.put(p.uid(), new Entry(seq, keys));
  }

  /** Adds the pods waiting for this key under this narrowing. */
  void collect(QueueingHint.Narrowing n, String key, Set<QueuedPodInfo> out) {
    Map<String, Set<QueuedPodInfo>> index = byKey.get(n);
    Set<QueuedPodInfo> pods = index == null ? null : index.get(key);
    if (pods != null) {
      out.addAll(pods);
    }
  }

  /** The collected pods in the pool's order. */
  List<QueuedPodInfo> inPoolOrder(Set<QueuedPodInfo> collected) {
    List<QueuedPodInfo> out = new ArrayList<>(collected);
    if (out.size() > 1) {
      out.sort(Comparator.comparingLong(p -> entries.get(p.uid()).seq()));
    }
    return out;
  }
}
