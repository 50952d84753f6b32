package io.jdra.controllers.replicaset;

import static io.jdra.runtime.logging.Klog.kobj;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.controllers.controllerutil.ControllerExpectations;
import io.jdra.controllers.controllerutil.LabelSelectors;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.PodControl;
import io.jdra.controllers.controllerutil.PodUtil;
import io.jdra.controllers.controllerutil.QueueController;
import io.jdra.controllers.controllerutil.RealPodControl;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.logging.Logger;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The ReplicaSet controller ({@code pkg/controller/replicaset/replica_set.go}): keeps {@code
 * spec.replicas} active pods matching each ReplicaSet's selector, owned through a controller
 * reference, and reports them in the status.
 *
 * <p>Event handlers only resolve owners, record observed creations and deletions in the {@link
 * ControllerExpectations} and enqueue keys; API calls happen in workers, one worker per key at a
 * time. Logging: V(4) per-sync decisions, V(6) event handling.
 */
public final class ReplicaSetController extends QueueController {
  /** The controller's name in kube-controller-manager, also its logger's and events' source. */
  public static final String NAME = "replicaset-controller";

  /** Upstream's queue name (label {@code name} of the {@code workqueue_*} metrics). */
  public static final String QUEUE_NAME = "replicaset";

  /**
   * Upstream's {@code BurstReplicas}: the most pods created or deleted in one sync, so one large
   * ReplicaSet cannot starve the others of API server capacity.
   */
  public static final int BURST_REPLICAS = 500;

  private final Deps deps;
  private final SyncReplicaSet sync;

  ReplicaSetController(Deps deps, RateLimitingQueue<String> queue, BooleanSupplier synced) {
    super(QUEUE_NAME, queue, synced);
    this.deps = deps;
    this.sync = new SyncReplicaSet(deps, queue);
  }

  /**
   * Wires the controller to the shared ReplicaSet and Pod informers (call before the factory
   * starts); handlers stay registered for the lifetime of {@code ctx}. Events go to {@code
   * recorder}.
   */
  public static ReplicaSetController create(
      Ctx ctx,
      KubernetesClient client,
      InformerFactory informers,
      EventRecorder recorder,
      WorkQueueMetrics queueMetrics) {
    SharedIndexInformer<ReplicaSet> rss = informers.informer(ReplicaSet.class);
    SharedIndexInformer<Pod> pods = informers.informer(Pod.class);
    Deps deps =
        new Deps(
            client,
            Lister.of(rss),
            Lister.of(pods),
            new ControllerExpectations(ctx.clock()),
            new RealPodControl(client, recorder),
            ctx.clock(),
            BURST_REPLICAS);
    ReplicaSetController c =
        new ReplicaSetController(
            deps, defaultQueue(ctx, QUEUE_NAME, queueMetrics), allSynced(rss, pods));
    c.addHandlers(ctx, rss, pods);
    return c;
  }

  private void addHandlers(
      Ctx ctx, SharedIndexInformer<ReplicaSet> rss, SharedIndexInformer<Pod> pods) {
    Logger log = ctx.logger();
    Handlers.add(
        ctx,
        rss,
        new ResourceEventHandler<ReplicaSet>() {
          @Override
          public void onAdd(ReplicaSet rs) {
            log.v(4).info("Adding", "replicaSet", kobj(rs));
            enqueue(rs);
          }

          @Override
          public void onUpdate(ReplicaSet old, ReplicaSet cur) {
            updateRS(log, old, cur);
          }

          @Override
          public void onDelete(ReplicaSet rs, boolean finalStateUnknown) {
            deleteRS(log, rs);
          }
        });
    Handlers.add(
        ctx,
        pods,
        new ResourceEventHandler<Pod>() {
          @Override
          public void onAdd(Pod pod) {
            addPod(log, pod);
          }

          @Override
          public void onUpdate(Pod old, Pod cur) {
            updatePod(log, old, cur);
          }

          @Override
          public void onDelete(Pod pod, boolean finalStateUnknown) {
            deletePod(log, pod);
          }
        });
  }

  Deps deps() {
    return deps;
  }

  @Override
  protected void syncHandler(Ctx ctx, String key) {
    sync.sync(ctx, key);
  }

  // ---- event handlers: resolve, observe, enqueue ----

  static String key(ReplicaSet rs) {
    return QueueController.key(rs);
  }

  void enqueue(ReplicaSet rs) {
    queue.add(key(rs));
  }

  void updateRS(Logger log, ReplicaSet old, ReplicaSet cur) {
    if (!Objects.equals(old.getMetadata().getUid(), cur.getMetadata().getUid())) {
      deleteRS(log, old); // deleted and recreated under the same name between two events
    }
    if (!Objects.equals(old.getSpec().getReplicas(), cur.getSpec().getReplicas())) {
      log.v(4)
          .info(
              "Replicas updated",
              "replicaSet",
              kobj(cur),
              "oldReplicas",
              old.getSpec().getReplicas(),
              "newReplicas",
              cur.getSpec().getReplicas());
    }
    enqueue(cur);
  }

  void deleteRS(Logger log, ReplicaSet rs) {
    log.v(4).info("Deleting", "replicaSet", kobj(rs));
    deps.expectations().deleteExpectations(key(rs));
    enqueue(rs);
  }

  /** The ReplicaSet a controller reference names, if it is the same object (UID) as cached. */
  ReplicaSet resolveControllerRef(String namespace, OwnerReference ref) {
    if (!"ReplicaSet".equals(ref.getKind()) || !ref.getApiVersion().startsWith("apps/")) {
      return null;
    }
    ReplicaSet rs = deps.rsLister().get(namespace, ref.getName()).orElse(null);
    if (rs == null || !rs.getMetadata().getUid().equals(ref.getUid())) {
      return null;
    }
    return rs;
  }

  /** Upstream's {@code getPodReplicaSets}: ReplicaSets whose non-empty selector matches. */
  List<ReplicaSet> podReplicaSets(Pod pod) {
    List<ReplicaSet> out = new ArrayList<>();
    for (ReplicaSet rs : deps.rsLister().list(pod.getMetadata().getNamespace())) {
      if (!LabelSelectors.isEmpty(rs.getSpec().getSelector())
          && LabelSelectors.matches(rs.getSpec().getSelector(), pod.getMetadata().getLabels())) {
        out.add(rs);
      }
    }
    return out;
  }

  void addPod(Logger log, Pod pod) {
    if (PodUtil.isTerminating(pod)) {
      // After a restart the first event of a pod being deleted is an add; count it as deleted.
      deletePod(log, pod);
      return;
    }
    OwnerReference ref = OwnerRefs.controllerOf(pod);
    if (ref != null) {
      ReplicaSet rs = resolveControllerRef(pod.getMetadata().getNamespace(), ref);
      if (rs != null) {
        log.v(6).info("Pod created", "pod", kobj(pod), "replicaSet", kobj(rs));
        deps.expectations().creationObserved(key(rs));
        enqueue(rs);
      }
      return;
    }
    // An orphan: wake every matching ReplicaSet; one of them may adopt it.
    podReplicaSets(pod).forEach(this::enqueue);
  }

  void updatePod(Logger log, Pod old, Pod cur) {
    if (Objects.equals(
        old.getMetadata().getResourceVersion(), cur.getMetadata().getResourceVersion())) {
      return; // a resync, nothing changed
    }
    boolean labelChanged =
        !Objects.equals(old.getMetadata().getLabels(), cur.getMetadata().getLabels());
    if (PodUtil.isTerminating(cur)) {
      // Counted as deleted at once: a graceful deletion can take long, and waiting for the
      // final delete would hold the replacement back.
      deletePod(log, cur);
      if (labelChanged) {
        deletePod(log, old);
      }
      return;
    }
    OwnerReference curRef = OwnerRefs.controllerOf(cur);
    OwnerReference oldRef = OwnerRefs.controllerOf(old);
    boolean refChanged = !Objects.equals(curRef, oldRef);
    if (refChanged && oldRef != null) {
      ReplicaSet rs = resolveControllerRef(old.getMetadata().getNamespace(), oldRef);
      if (rs != null) {
        enqueue(rs);
      }
    }
    if (curRef != null) {
      ReplicaSet rs = resolveControllerRef(cur.getMetadata().getNamespace(), curRef);
      if (rs == null) {
        return;
      }
      log.v(6).info("Pod updated", "pod", kobj(cur), "replicaSet", kobj(rs));
      enqueue(rs);
      int minReady = minReadySeconds(rs);
      if (!PodUtil.isPodReady(old) && PodUtil.isPodReady(cur) && minReady > 0) {
        // Available minReadySeconds after ready: look again then (plus a second, as upstream,
        // so the comparison with "now" is past the boundary).
        queue.addAfter(key(rs), Duration.ofSeconds(minReady + 1L));
      }
      return;
    }
    if (labelChanged || refChanged) {
      podReplicaSets(cur).forEach(this::enqueue);
    }
  }

  void deletePod(Logger log, Pod pod) {
    OwnerReference ref = OwnerRefs.controllerOf(pod);
    if (ref == null) {
      return;
    }
    ReplicaSet rs = resolveControllerRef(pod.getMetadata().getNamespace(), ref);
    if (rs == null) {
      return;
    }
    log.v(6).info("Pod deleted", "pod", kobj(pod), "replicaSet", kobj(rs));
    deps.expectations().deletionObserved(key(rs), PodUtil.key(pod));
    enqueue(rs);
  }

  static int minReadySeconds(ReplicaSet rs) {
    Integer m = rs.getSpec().getMinReadySeconds();
    return m == null ? 0 : m;
  }

  /** What the sync reads and writes through. Immutable; every part is thread-safe. */
  record Deps(
      KubernetesClient client,
      Lister<ReplicaSet> rsLister,
      Lister<Pod> podLister,
      ControllerExpectations expectations,
      PodControl podControl,
      io.jdra.runtime.clock.Clock clock,
      int burstReplicas) {}
}
