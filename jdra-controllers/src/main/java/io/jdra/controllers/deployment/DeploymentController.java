package io.jdra.controllers.deployment;

import static io.jdra.runtime.logging.Klog.kobj;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.controllers.controllerutil.LabelSelectors;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.QueueController;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.logging.Logger;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The Deployment controller ({@code pkg/controller/deployment/deployment_controller.go}): rolls
 * Deployments out through ReplicaSets named {@code <deployment>-<pod-template-hash>}, with the
 * {@code RollingUpdate} and {@code Recreate} strategies, proportional scaling, revisions and
 * history cleanup, and reports status and conditions for {@code kubectl rollout status}.
 *
 * <p>Handlers only resolve owners and enqueue; all API calls happen in workers, one worker per
 * Deployment at a time.
 */
public final class DeploymentController extends QueueController {
  /** The controller's name in kube-controller-manager, also its logger's and events' source. */
  public static final String NAME = "deployment-controller";

  /** Upstream's queue name. */
  public static final String QUEUE_NAME = "deployment";

  private final Deps deps;

  DeploymentController(Deps deps, RateLimitingQueue<String> queue, BooleanSupplier synced) {
    super(QUEUE_NAME, queue, synced);
    this.deps = deps;
  }

  /** What a sync reads and writes through. Immutable; every part is thread-safe. */
  record Deps(
      KubernetesClient client,
      Lister<Deployment> dLister,
      Lister<ReplicaSet> rsLister,
      Lister<Pod> podLister,
      EventRecorder recorder,
      Clock clock) {}

  /** Wires the controller to the shared informers; call before the factory starts. */
  public static DeploymentController create(
      Ctx ctx,
      KubernetesClient client,
      InformerFactory informers,
      EventRecorder recorder,
      WorkQueueMetrics queueMetrics) {
    SharedIndexInformer<Deployment> ds = informers.informer(Deployment.class);
    SharedIndexInformer<ReplicaSet> rss = informers.informer(ReplicaSet.class);
    SharedIndexInformer<Pod> pods = informers.informer(Pod.class);
    Deps deps =
        new Deps(client, Lister.of(ds), Lister.of(rss), Lister.of(pods), recorder, ctx.clock());
    DeploymentController c =
        new DeploymentController(
            deps, defaultQueue(ctx, QUEUE_NAME, queueMetrics), allSynced(ds, rss, pods));
    c.addHandlers(ctx, ds, rss, pods);
    return c;
  }

  private void addHandlers(
      Ctx ctx,
      SharedIndexInformer<Deployment> ds,
      SharedIndexInformer<ReplicaSet> rss,
      SharedIndexInformer<Pod> pods) {
    Logger log = ctx.logger();
    Handlers.add(
        ctx,
        ds,
        new ResourceEventHandler<Deployment>() {
          @Override
          public void onAdd(Deployment d) {
            log.v(4).info("Adding deployment", "deployment", kobj(d));
            enqueue(d);
          }

          @Override
          public void onUpdate(Deployment old, Deployment cur) {
            log.v(4).info("Updating deployment", "deployment", kobj(cur));
            enqueue(cur);
          }

          @Override
          public void onDelete(Deployment d, boolean finalStateUnknown) {
            log.v(4).info("Deleting deployment", "deployment", kobj(d));
            enqueue(d);
          }
        });
    Handlers.add(
        ctx,
        rss,
        new ResourceEventHandler<ReplicaSet>() {
          @Override
          public void onAdd(ReplicaSet rs) {
            addReplicaSet(rs);
          }

          @Override
          public void onUpdate(ReplicaSet old, ReplicaSet cur) {
            updateReplicaSet(old, cur);
          }

          @Override
          public void onDelete(ReplicaSet rs, boolean finalStateUnknown) {
            deleteReplicaSet(rs);
          }
        });
    Handlers.add(
        ctx,
        pods,
        new ResourceEventHandler<Pod>() {
          @Override
          public void onAdd(Pod pod) {}

          @Override
          public void onUpdate(Pod old, Pod cur) {}

          @Override
          public void onDelete(Pod pod, boolean finalStateUnknown) {
            deletePod(pod);
          }
        });
  }

  @Override
  protected void syncHandler(Ctx ctx, String key) {
    new SyncDeployment(deps, queue, ctx).sync(key);
  }

  // ---- handlers ----

  static String key(Deployment d) {
    return QueueController.key(d);
  }

  void enqueue(Deployment d) {
    queue.add(key(d));
  }

  Deployment resolveControllerRef(String namespace, OwnerReference ref) {
    if (!"Deployment".equals(ref.getKind()) || !ref.getApiVersion().startsWith("apps/")) {
      return null;
    }
    Deployment d = deps.dLister().get(namespace, ref.getName()).orElse(null);
    return d != null && d.getMetadata().getUid().equals(ref.getUid()) ? d : null;
  }

  /** Upstream's {@code getDeploymentsForReplicaSet}: Deployments whose selector matches. */
  List<Deployment> deploymentsForReplicaSet(ReplicaSet rs) {
    List<Deployment> out = new ArrayList<>();
    for (Deployment d : deps.dLister().list(rs.getMetadata().getNamespace())) {
      if (!LabelSelectors.isEmpty(d.getSpec().getSelector())
          && LabelSelectors.matches(d.getSpec().getSelector(), rs.getMetadata().getLabels())) {
        out.add(d);
      }
    }
    return out;
  }

  void addReplicaSet(ReplicaSet rs) {
    if (rs.getMetadata().getDeletionTimestamp() != null) {
      deleteReplicaSet(rs);
      return;
    }
    OwnerReference ref = OwnerRefs.controllerOf(rs);
    if (ref != null) {
      Deployment d = resolveControllerRef(rs.getMetadata().getNamespace(), ref);
      if (d != null) {
        enqueue(d);
      }
      return;
    }
    deploymentsForReplicaSet(rs).forEach(this::enqueue);
  }

  void updateReplicaSet(ReplicaSet old, ReplicaSet cur) {
    if (Objects.equals(
        old.getMetadata().getResourceVersion(), cur.getMetadata().getResourceVersion())) {
      return;
    }
    OwnerReference curRef = OwnerRefs.controllerOf(cur);
    OwnerReference oldRef = OwnerRefs.controllerOf(old);
    boolean refChanged = !Objects.equals(curRef, oldRef);
    if (refChanged && oldRef != null) {
      Deployment d = resolveControllerRef(old.getMetadata().getNamespace(), oldRef);
      if (d != null) {
        enqueue(d);
      }
    }
    if (curRef != null) {
      Deployment d = resolveControllerRef(cur.getMetadata().getNamespace(), curRef);
      if (d != null) {
        enqueue(d);
      }
      return;
    }
    boolean labelChanged =
        !Objects.equals(old.getMetadata().getLabels(), cur.getMetadata().getLabels());
    if (labelChanged || refChanged) {
      deploymentsForReplicaSet(cur).forEach(this::enqueue);
    }
  }

  void deleteReplicaSet(ReplicaSet rs) {
    OwnerReference ref = OwnerRefs.controllerOf(rs);
    if (ref == null) {
      return;
    }
    Deployment d = resolveControllerRef(rs.getMetadata().getNamespace(), ref);
    if (d != null) {
      enqueue(d);
    }
  }

  /**
   * A Recreate rollout waits until the old pods are gone: a deleted pod of one of its ReplicaSets
   * wakes the Deployment (upstream checks that no pod is left first; the sync checks that too).
   */
  void deletePod(Pod pod) {
    OwnerReference rsRef = OwnerRefs.controllerOf(pod);
    if (rsRef == null || !"ReplicaSet".equals(rsRef.getKind())) {
      return;
    }
    ReplicaSet rs =
        deps.rsLister().get(pod.getMetadata().getNamespace(), rsRef.getName()).orElse(null);
    if (rs == null || !rs.getMetadata().getUid().equals(rsRef.getUid())) {
      return;
    }
    OwnerReference dRef = OwnerRefs.controllerOf(rs);
    Deployment d =
        dRef == null ? null : resolveControllerRef(rs.getMetadata().getNamespace(), dRef);
    if (d != null && DeploymentUtil.isRecreate(d)) {
      enqueue(d);
    }
  }
}
