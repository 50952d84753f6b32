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
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * Sends pod statuses to the API server apart from the pod syncs that produce them (upstream's
 * kubelet status manager, pkg/kubelet/status): a sync hands over the status it wants and goes on;
 * per pod at most one write is in flight, and statuses set while it is carry over as one write of
 * the newest (coalescing), so a pod whose status changes faster than the API server answers costs
 * one request per round trip, not one per change. A status equal to the last one sent or pending is
 * not sent again.
 *
 * <p>A write is upstream's syncPod: read the pod from the API server (a live GET, not the
 * informer's copy), skip it if it is gone or is a new pod of the same name, merge the kubelet's
 * status into the server's ({@link PodStatusPatch#mergePodStatus}), and send the difference as a
 * strategic merge patch with the pod's UID ({@link PodStatusPatch#create}); nothing is sent when
 * there is no difference.
 *
 * <p>Every {@link #SYNC_PERIOD} (upstream's syncPeriod) a full pass (upstream's syncBatch(true))
 * writes each pod whose newest status is not stored yet (needsUpdate) and each pod whose status in
 * the informer's copy differs from what the kubelet last set (needsReconcile: the kubelet is the
 * source of truth for the fields it owns, so a status someone else changed is set back).
 *
 * <p>Unlike upstream's single sync goroutine, writes for different pods go out in parallel: the
 * simulated node has no client-side rate limit, and one sequential writer would make a burst of pod
 * starts wait for each other's round trips.
 *
 * <p>A failed write is retried with back-off (500 ms, doubled up to {@link #MAX_RETRY}) unless a
 * newer status replaces it or the periodic pass comes first (upstream retries on its next batch
 * only); a pod that is gone (404) is dropped. Callers that must know the status is stored (the
 * terminal status before the pod's final delete) wait on the returned future, which fails when the
 * next write fails, so their sync is retried as before.
 */
final class StatusManager {
  /** The API server as the status manager uses it. */
  interface PodClient {
    /** The pod as the API server has it now (a live read); null when there is none. */
    ServerPod get(String namespace, String name);

    /** Sends a strategic merge patch of the pod's status subresource; throws on failure. */
    void patchStatus(String namespace, String name, String patch);
  }

  /** A pod's UID and status (as JSON) as some source has it. */
  record ServerPod(String uid, ObjectNode status) {}

  static final Duration SYNC_PERIOD = Duration.ofSeconds(10);
  static final Duration INITIAL_RETRY = Duration.ofMillis(500);
  static final Duration MAX_RETRY = Duration.ofSeconds(10);

  private final Ctx ctx;
  private final PodClient client;
  private final Function<String, ServerPod> podManager;
  private final Executor executor;
  private final Map<String, PodEntry> pods = new ConcurrentHashMap<>();
  private volatile Clock.Timer batchTimer;

  /**
   * {@code podManager} returns the node's cached copy of a pod by {@code namespace/name} (the
   * informer's, upstream's pod manager), or null.
   */
  StatusManager(
      Ctx ctx, PodClient client, Function<String, ServerPod> podManager, Executor executor) {
    this.ctx = ctx;
    this.client = client;
    this.podManager = podManager;
    this.executor = executor;
  }

  /** The newest status of one pod and the state of its writes (guarded by itself). */
  private static final class PodEntry {
    final String namespace;
    final String name;
    ObjectNode status;
    long version;
    long sent;
    boolean inFlight;

    /** Write even if this version was sent (the server's copy no longer matches it). */
    boolean reconcile;

    Duration retry = INITIAL_RETRY;
    Clock.Timer retryTimer;
    List<CompletableFuture<Void>> waiters = new ArrayList<>();

    PodEntry(String namespace, String name) {
      this.namespace = namespace;
      this.name = name;
    }
  }

  /** Starts the periodic pass (upstream's Start with its syncTicker); it ends with the context. */
  void start() {
    ctx.onCancel(() -> {
      Clock.Timer t = batchTimer;
      if (t != null) {
        t.cancel();
      }
    });
    scheduleBatch();
  }

  private void scheduleBatch() {
    batchTimer =
        ctx.clock()
            .schedule(
                SYNC_PERIOD,
                () -> {
                  if (!ctx.isCancelled()) {
                    // The pass reads every pod's cached copy: off the clock's shared thread.
                    executor.execute(() -> {
                      syncBatch();
                      scheduleBatch();
                    });
                  }
                });
  }

  /**
   * Sets the status of pod {@code uid} to {@code status} (the fields the kubelet sets; not modified
   * afterwards). The future completes when that status, or a newer one, is stored, or the pod is
   * gone; it fails when the next write of the pod's status fails.
   */
  CompletableFuture<Void> setPodStatus(
      String uid, String namespace, String name, ObjectNode status) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    if (ctx.isCancelled()) {
      done.completeExceptionally(new CancellationException("kubelet stopped"));
      return done;
    }
    PodEntry e = pods.computeIfAbsent(uid, u -> new PodEntry(namespace, name));
    boolean start;
    synchronized (e) {
      if (status.equals(e.status) && e.version == e.sent && !e.inFlight) {
        // Upstream ignores a status equal to the cached one; it is stored already.
        done.complete(null);
        return done;
      }
      if (!status.equals(e.status)) {
        e.status = status;
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

  /**
   * The periodic pass (upstream's syncBatch(true)): writes each pod whose newest status is not
   * stored (needsUpdate; a failed write waiting for its back-off goes now) or whose cached copy no
   * longer shows the status the kubelet set (needsReconcile). Returns the number of writes started.
   */
  int syncBatch() {
    int started = 0;
    for (Map.Entry<String, PodEntry> p : pods.entrySet()) {
      PodEntry e = p.getValue();
      ObjectNode status;
      long version;
      boolean stored;
      synchronized (e) {
        if (e.inFlight || e.status == null) {
          continue;
        }
        status = e.status;
        version = e.version;
        stored = e.version == e.sent;
      }
      boolean reconcile = stored && needsReconcile(p.getKey(), e, status);
      synchronized (e) {
        if (e.inFlight || (e.version == e.sent && !reconcile) || e.version != version) {
          continue;
        }
        e.reconcile = reconcile;
        e.inFlight = true;
        cancelRetry(e);
      }
      started++;
      executor.execute(() -> send(p.getKey(), e));
    }
    return started;
  }

  /** Whether the cached copy of the pod differs from the status the kubelet last set. */
  private boolean needsReconcile(String uid, PodEntry e, ObjectNode status) {
    ServerPod cached = podManager.apply(e.namespace + "/" + e.name);
    if (cached == null || !cached.uid().equals(uid)) {
      return false;
    }
    ObjectNode merged = PodStatusPatch.mergePodStatus(cached.status(), status);
    return PodStatusPatch.create(uid, cached.status(), merged) != null;
  }

  /** Writes the newest status until none is newer than the last write; one thread per pod. */
  private void send(String uid, PodEntry e) {
    while (true) {
      ObjectNode status;
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
        if ((e.version == e.sent && !e.reconcile) || pods.get(uid) != e) {
          e.inFlight = false;
          waiters = takeWaiters(e);
          waiters.forEach(w -> w.complete(null));
          return;
        }
        e.reconcile = false;
        status = e.status;
        version = e.version;
        waiters = takeWaiters(e);
      }
      try {
        if (!syncPod(uid, e, status)) {
          pods.remove(uid, e);
          waiters.forEach(w -> w.complete(null));
          continue;
        }
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

  /**
   * One write (upstream's syncPod): a live read of the pod, then the patch from its status to the
   * merged one, if any. Returns false when the pod is gone or is a new pod of the same name.
   */
  private boolean syncPod(String uid, PodEntry e, ObjectNode status) {
    ServerPod pod = client.get(e.namespace, e.name);
    if (pod == null) {
      ctx.logger().v(3).info("Pod does not exist on the server", "podUID", uid);
      return false;
    }
    if (!pod.uid().equals(uid)) {
      ctx.logger()
          .v(2)
          .info(
              "Pod was deleted and then recreated, skipping status update",
              "oldPodUID",
              uid,
              "podUID",
              pod.uid());
      return false;
    }
    ObjectNode merged = PodStatusPatch.mergePodStatus(pod.status(), status);
    ObjectNode patch = PodStatusPatch.create(uid, pod.status(), merged);
    if (patch != null) {
      client.patchStatus(e.namespace, e.name, patch.toString());
    }
    return true;
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
      if (e.inFlight || (e.version == e.sent && !e.reconcile) || pods.get(uid) != e) {
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
