package io.jdra.kubelet.sim;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Sends pod statuses to the API server apart from the pod syncs that produce them (upstream's
 * kubelet status manager, pkg/kubelet/status): a sync hands over the status it wants and goes on;
 * per pod at most one write is in flight, and statuses set while it is carry over as one write of
 * the newest (coalescing), so a pod whose status changes faster than the API server answers costs
 * one request per round trip, not one per change. A status equal to the last one sent or pending is
 * not sent again.
 *
 * <p>Unlike upstream's single sync goroutine, writes for different pods go out in parallel: the
 * simulated node has no client-side rate limit, and one sequential writer would make a burst of pod
 * starts wait for each other's round trips.
 *
 * <p>A failed write is retried with back-off (500 ms, doubled up to {@link #MAX_RETRY}) unless a
 * newer status replaces it; a pod that is gone (404) is dropped. Callers that must know the status
 * is stored (the terminal status before the pod's final delete) wait on the returned future, which
 * fails when the next write fails, so their sync is retried as before.
 */
final class StatusManager {
  /** Writes one pod's status (a JSON merge patch of {@code status}); throws on failure. */
  @FunctionalInterface
  interface Writer {
    void patchStatus(String namespace, String name, String body);
  }

  static final Duration INITIAL_RETRY = Duration.ofMillis(500);
  static final Duration MAX_RETRY = Duration.ofSeconds(10);

  private final Ctx ctx;
  private final Writer writer;
  private final Executor executor;
  private final Map<String, PodEntry> pods = new ConcurrentHashMap<>();

  StatusManager(Ctx ctx, Writer writer, Executor executor) {
    this.ctx = ctx;
    this.writer = writer;
    this.executor = executor;
  }

  /** The newest status of one pod and the state of its writes (guarded by itself). */
  private static final class PodEntry {
    final String namespace;
    final String name;
    String body;
    long version;
    long sent;
    boolean inFlight;
    Duration retry = INITIAL_RETRY;
    Clock.Timer retryTimer;
    List<CompletableFuture<Void>> waiters = new ArrayList<>();

    PodEntry(String namespace, String name) {
      this.namespace = namespace;
      this.name = name;
    }
  }

  /**
   * Sets the status of pod {@code uid} to {@code body} (a merge patch body). The future completes
   * when that status, or a newer one, is stored, or the pod is gone; it fails when the next write
   * of the pod's status fails.
   */
  CompletableFuture<Void> setPodStatus(String uid, String namespace, String name, String body) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    if (ctx.isCancelled()) {
      done.completeExceptionally(new CancellationException("kubelet stopped"));
      return done;
    }
    PodEntry e = pods.computeIfAbsent(uid, u -> new PodEntry(namespace, name));
    boolean start;
    synchronized (e) {
      if (body.equals(e.body) && e.version == e.sent && !e.inFlight) {
        // Upstream ignores a status equal to the cached one; it is stored already.
        done.complete(null);
        return done;
      }
      if (!body.equals(e.body)) {
        e.body = body;
        e.version++;
      }
      e.waiters.add(done);
      start = !e.inFlight;
      e.inFlight = true;
      cancelRetry(e);
    }
    if (start) {
      executor.execute(() -> send(uid, e));
    }
    return done;
  }

  /** Forgets a pod that is gone for good (pending writes are dropped, waiters complete). */
  void forget(String uid) {
    PodEntry e = pods.remove(uid);
    if (e != null) {
      List<CompletableFuture<Void>> waiters;
      synchronized (e) {
        cancelRetry(e);
        waiters = takeWaiters(e);
      }
      waiters.forEach(w -> w.complete(null));
    }
  }

  /** Pods with a status not yet stored (for tests). */
  int pending() {
    int n = 0;
    for (PodEntry e : pods.values()) {
      synchronized (e) {
        if (e.version != e.sent) {
          n++;
        }
      }
    }
    return n;
  }

  /** Writes the newest status until none is newer than the last write; one thread per pod. */
  private void send(String uid, PodEntry e) {
    while (true) {
      String body;
      long version;
      List<CompletableFuture<Void>> waiters;
      synchronized (e) {
        if (ctx.isCancelled()) {
          // Nobody may wait forever on a node that stopped (a sync awaiting a terminal status).
          e.inFlight = false;
          takeWaiters(e)
              .forEach(w -> w.completeExceptionally(new CancellationException("kubelet stopped")));
          return;
        }
        if (e.version == e.sent || pods.get(uid) != e) {
          e.inFlight = false;
          waiters = takeWaiters(e);
          waiters.forEach(w -> w.complete(null));
          return;
        }
        body = e.body;
        version = e.version;
        waiters = takeWaiters(e);
      }
      try {
        writer.patchStatus(e.namespace, e.name, body);
      } catch (KubernetesClientException ex) {
        if (ex.getCode() == 404) {
          pods.remove(uid, e);
          waiters.forEach(w -> w.complete(null));
          continue;
        }
        failed(uid, e, ex, waiters);
        return;
      } catch (RuntimeException ex) {
        failed(uid, e, ex, waiters);
        return;
      }
      synchronized (e) {
        e.sent = Math.max(e.sent, version);
        e.retry = INITIAL_RETRY;
      }
      waiters.forEach(w -> w.complete(null));
    }
  }

  private void failed(
      String uid, PodEntry e, RuntimeException ex, List<CompletableFuture<Void>> waiters) {
    ctx.logger()
        .info(
            "Failed to update status for pod, will retry",
            "pod",
            e.namespace + "/" + e.name,
            "err",
            ex.getMessage());
    List<CompletableFuture<Void>> all = new ArrayList<>(waiters);
    synchronized (e) {
      Duration after = e.retry;
      Duration doubled = after.multipliedBy(2);
      e.retry = doubled.compareTo(MAX_RETRY) > 0 ? MAX_RETRY : doubled;
      e.inFlight = false;
      e.retryTimer = ctx.clock().schedule(after, () -> retry(uid, e));
      all.addAll(takeWaiters(e));
    }
    // Everyone waiting learns of the failure (and may retry their sync); the status itself is
    // retried here either way.
    all.forEach(w -> w.completeExceptionally(ex));
  }

  private void retry(String uid, PodEntry e) {
    synchronized (e) {
      e.retryTimer = null;
      if (e.inFlight || e.version == e.sent || pods.get(uid) != e) {
        return;
      }
      e.inFlight = true;
    }
    executor.execute(() -> send(uid, e));
  }

  private static void cancelRetry(PodEntry e) {
    if (e.retryTimer != null) {
      e.retryTimer.cancel();
      e.retryTimer = null;
    }
  }

  private static List<CompletableFuture<Void>> takeWaiters(PodEntry e) {
    List<CompletableFuture<Void>> w = e.waiters;
    e.waiters = new ArrayList<>();
    return w;
  }
}
