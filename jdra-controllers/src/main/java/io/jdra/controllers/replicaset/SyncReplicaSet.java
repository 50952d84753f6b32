package io.jdra.controllers.replicaset;

import static io.jdra.runtime.logging.Klog.kobj;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.jdra.controllers.controllerutil.ActivePodsWithRanks;
import io.jdra.controllers.controllerutil.ApiErrors;
import io.jdra.controllers.controllerutil.ControllerRefManager;
import io.jdra.controllers.controllerutil.LabelSelectors;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.PodControl;
import io.jdra.controllers.controllerutil.PodUtil;
import io.jdra.controllers.controllerutil.QueueWorkers;
import io.jdra.controllers.controllerutil.SlowStart;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Upstream's {@code syncReplicaSet} and {@code manageReplicas}: claim the active pods, create or
 * delete the difference to {@code spec.replicas} when the expectations are satisfied, then write
 * the status. Thread-safe; the queue guarantees one worker per key.
 */
final class SyncReplicaSet {
  private final ReplicaSetController.Deps deps;
  private final RateLimitingQueue<String> queue;

  SyncReplicaSet(ReplicaSetController.Deps deps, RateLimitingQueue<String> queue) {
    this.deps = deps;
    this.queue = queue;
  }

  void sync(Ctx ctx, String key) {
    String[] nsName = QueueWorkers.splitKey(key);
    Optional<ReplicaSet> cached = deps.rsLister().get(nsName[0], nsName[1]);
    if (cached.isEmpty()) {
      ctx.logger().v(4).info("ReplicaSet has been deleted", "key", key);
      deps.expectations().deleteExpectations(key);
      return;
    }
    ReplicaSet rs = cached.get();
    boolean needsSync = deps.expectations().satisfiedExpectations(key);
    List<Pod> all = deps.podLister().list(rs.getMetadata().getNamespace());
    List<Pod> active = all.stream().filter(PodUtil::isPodActive).toList();
    ControllerRefManager.Claimed<Pod> claimed = claimPods(rs, active);
    if (claimed.error() != null) {
      throw claimed.error();
    }
    List<Pod> pods = claimed.objects();
    RuntimeException manageErr = null;
    if (needsSync && rs.getMetadata().getDeletionTimestamp() == null) {
      manageErr = manageReplicas(ctx, pods, rs, key);
    }
    ReplicaSet updated =
        ReplicaSetStatusUpdate.update(
            deps.client(),
            rs,
            ReplicaSetStatusUpdate.calculate(
                rs, pods, manageErr, replicas(rs), deps.clock().now()));
    int minReady = ReplicaSetController.minReadySeconds(updated);
    if (manageErr == null
        && minReady > 0
        && intOf(updated.getStatus().getReadyReplicas()) == replicas(updated)
        && intOf(updated.getStatus().getAvailableReplicas()) != replicas(updated)) {
      queue.addAfter(key, Duration.ofSeconds(minReady));
    }
    if (manageErr != null) {
      throw manageErr;
    }
  }

  static int replicas(ReplicaSet rs) {
    return rs.getSpec().getReplicas() == null ? 1 : rs.getSpec().getReplicas();
  }

  static int intOf(Integer i) {
    return i == null ? 0 : i;
  }

  private ControllerRefManager.Claimed<Pod> claimPods(ReplicaSet rs, List<Pod> pods) {
    ControllerRefManager<Pod> m =
        new ControllerRefManager<>(
            rs,
            p -> LabelSelectors.matches(rs.getSpec().getSelector(), p.getMetadata().getLabels()),
            () ->
                deps.client()
                    .apps()
                    .replicaSets()
                    .inNamespace(rs.getMetadata().getNamespace())
                    .withName(rs.getMetadata().getName())
                    .get(),
            (p, patch) ->
                deps.client()
                    .pods()
                    .inNamespace(p.getMetadata().getNamespace())
                    .withName(p.getMetadata().getName())
                    .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch));
    return m.claim(pods);
  }

  /** Creates or deletes pods; returns the first error (null when all calls succeeded). */
  RuntimeException manageReplicas(Ctx ctx, List<Pod> pods, ReplicaSet rs, String key) {
    int diff = pods.size() - replicas(rs);
    if (diff < 0) {
      int n = Math.min(-diff, deps.burstReplicas());
      deps.expectations().expectCreations(key, n);
      ctx.logger()
          .v(2)
          .info("Too few replicas", "replicaSet", kobj(rs), "need", replicas(rs), "creating", n);
      OwnerReference ref = OwnerRefs.newControllerRef(rs);
      SlowStart.Result r =
          SlowStart.run(
              n,
              i -> {
                createPod(rs, ref);
                return null;
              });
      // Creations that were never attempted or failed will not be observed: stop expecting them.
      for (int i = r.successes(); i < n; i++) {
        deps.expectations().creationObserved(key);
      }
      return r.error();
    }
    if (diff > 0) {
      int n = Math.min(diff, deps.burstReplicas());
      ctx.logger()
          .v(2)
          .info("Too many replicas", "replicaSet", kobj(rs), "need", replicas(rs), "deleting", n);
      List<Pod> toDelete =
          ActivePodsWithRanks.sortForDeletion(pods, relatedPods(rs), deps.clock().now())
              .subList(0, n);
      Set<String> keys = new LinkedHashSet<>();
      toDelete.forEach(p -> keys.add(PodUtil.key(p)));
      deps.expectations().expectDeletions(key, keys);
      return deletePods(rs, key, toDelete);
    }
    return null;
  }

  private void createPod(ReplicaSet rs, OwnerReference ref) {
    try {
      deps.podControl()
          .createPod(
              rs.getMetadata().getNamespace(),
              rs.getSpec().getTemplate(),
              rs,
              ref,
              rs.getMetadata().getName() + "-",
              List.of());
    } catch (RuntimeException e) {
      // Pods cannot be created in a namespace being deleted; that is no error to retry.
      if (!ApiErrors.isNamespaceTerminating(e)) {
        throw e;
      }
    }
  }

  private RuntimeException deletePods(ReplicaSet rs, String key, List<Pod> toDelete) {
    RuntimeException first = null;
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<?>> futures = new ArrayList<>();
      for (Pod p : toDelete) {
        futures.add(
            pool.submit(() -> {
              try {
                deps.podControl()
                    .deletePod(p.getMetadata().getNamespace(), p.getMetadata().getName(), rs);
              } catch (RuntimeException e) {
                // Its deletion will not be observed; a missing pod is no failure.
                deps.expectations().deletionObserved(key, PodUtil.key(p));
                if (!(e instanceof PodControl.NotFoundException)) {
                  throw e;
                }
              }
            }));
      }
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          if (first == null) {
            first = (RuntimeException) e.getCause();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return new IllegalStateException("interrupted", e);
        }
      }
    }
    return first;
  }

  /**
   * Upstream's {@code getIndirectlyRelatedPods}: the active pods of every ReplicaSet with the same
   * controller as this one (its Deployment's other revisions), for the "doubled up" rank.
   */
  private List<Pod> relatedPods(ReplicaSet rs) {
    OwnerReference owner = OwnerRefs.controllerOf(rs);
    Set<String> rsUids = new HashSet<>();
    rsUids.add(rs.getMetadata().getUid());
    if (owner != null) {
      for (ReplicaSet other : deps.rsLister().list(rs.getMetadata().getNamespace())) {
        OwnerReference o = OwnerRefs.controllerOf(other);
        if (o != null && Objects.equals(o.getUid(), owner.getUid())) {
          rsUids.add(other.getMetadata().getUid());
        }
      }
    }
    List<Pod> out = new ArrayList<>();
    for (Pod p : deps.podLister().list(rs.getMetadata().getNamespace())) {
      OwnerReference ref = OwnerRefs.controllerOf(p);
      if (ref != null && rsUids.contains(ref.getUid()) && PodUtil.isPodActive(p)) {
        out.add(p);
      }
    }
    return out;
  }

  static String describe(HasMetadata o) {
    return o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
  }
}
