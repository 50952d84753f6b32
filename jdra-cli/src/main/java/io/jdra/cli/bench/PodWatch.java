package io.jdra.cli.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A handler on the scheduler's pod informer, as scheduler_perf reads pods from the scheduler's
 * informer factory: keeps per namespace how many pods exist and how many have a node, and which
 * pods are bound, as its events arrive, and tells listeners when a pod is first seen with a node.
 * Waits are woken by those events, not by polling. Handlers only record and hand on; listeners must
 * not block.
 */
final class PodWatch implements AutoCloseable {
  private final Ctx.Registration registration;
  private final List<Consumer<Pod>> onScheduled = new CopyOnWriteArrayList<>();

  /** Guards the counts below; notified on every change. */
  private final Object lock = new Object();

  private final Map<String, int[]> counts = new HashMap<>();
  private final Set<String> bound = new HashSet<>();

  /** Watches through {@code pods}, which the caller starts and stops. */
  PodWatch(Ctx ctx, SharedIndexInformer<Pod> pods) {
    registration =
        Handlers.add(
            ctx,
            pods,
            new ResourceEventHandler<>() {
              @Override
              public void onAdd(Pod p) {
                changed(null, p);
              }

              @Override
              public void onUpdate(Pod o, Pod p) {
                changed(o, p);
              }

              @Override
              public void onDelete(Pod p, boolean unknown) {
                synchronized (lock) {
                  int[] n = counts(p);
                  n[1]--;
                  if (bound.remove(p.getMetadata().getUid())) {
                    n[0]--;
                  }
                  lock.notifyAll();
                }
              }
            });
  }

  private void changed(Pod old, Pod p) {
    boolean scheduled = p.getSpec().getNodeName() != null;
    boolean newly = scheduled && (old == null || old.getSpec().getNodeName() == null);
    synchronized (lock) {
      int[] n = counts(p);
      if (old == null) {
        n[1]++;
      }
      if (scheduled && bound.add(p.getMetadata().getUid())) {
        n[0]++;
      }
      lock.notifyAll();
    }
    if (newly) {
      for (Consumer<Pod> l : onScheduled) {
        l.accept(p);
      }
    }
  }

  private int[] counts(Pod p) {
    return counts.computeIfAbsent(p.getMetadata().getNamespace(), k -> new int[2]);
  }

  void addListener(Consumer<Pod> l) {
    onScheduled.add(l);
  }

  void removeListener(Consumer<Pod> l) {
    onScheduled.remove(l);
  }

  /** Pods in the namespace that have a node, and all pods there. */
  int[] counts(String namespace) {
    synchronized (lock) {
      int[] n = counts.get(namespace);
      return n == null ? new int[2] : n.clone();
    }
  }

  /**
   * Waits until at least {@code want} pods of the namespace have a node; false if {@code
   * deadlineNanos} (System.nanoTime) passed first or {@code report} asked to stop. {@code report}
   * gets the count each {@code reportEveryNanos} while waiting.
   */
  boolean awaitScheduled(
      String namespace, int want, long deadlineNanos, long reportEveryNanos, Report report)
      throws InterruptedException {
    long nextReport = System.nanoTime() + reportEveryNanos;
    synchronized (lock) {
      while (true) {
        int[] n = counts.get(namespace);
        if ((n == null ? 0 : n[0]) >= want) {
          return true;
        }
        long now = System.nanoTime();
        if (now >= deadlineNanos) {
          return false;
        }
        if (now >= nextReport) {
          report.scheduled(n == null ? 0 : n[0]);
          nextReport = now + reportEveryNanos;
        }
        long wait = Math.min(deadlineNanos, nextReport) - now;
        lock.wait(Math.max(1, wait / 1_000_000));
      }
    }
  }

  /** Waits until every pod with one of these UIDs was seen with a node; false at the deadline. */
  boolean awaitBound(Collection<String> uids, long deadlineNanos) throws InterruptedException {
    synchronized (lock) {
      while (!bound.containsAll(uids)) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        lock.wait(Math.max(1, left / 1_000_000));
      }
      return true;
    }
  }

  /** How many of these UIDs were seen with a node. */
  int boundOf(Collection<String> uids) {
    synchronized (lock) {
      int n = 0;
      for (String u : uids) {
        n += bound.contains(u) ? 1 : 0;
      }
      return n;
    }
  }

  /** Progress while waiting. */
  interface Report {
    void scheduled(int count);
  }

  @Override
  public void close() {
    registration.close();
  }
}
