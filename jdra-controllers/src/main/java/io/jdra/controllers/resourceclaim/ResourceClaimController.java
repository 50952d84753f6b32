package io.jdra.controllers.resourceclaim;

import static io.jdra.runtime.logging.Klog.kobj;
import static io.jdra.runtime.logging.Klog.kref;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import io.jdra.api.resourceclaim.PodClaimName;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.controllers.controllerutil.QueueController;
import io.jdra.controllers.controllerutil.QueueWorkers;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.cache.MutationCache;
import io.jdra.runtime.logging.Logger;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The ResourceClaim controller of kube-controller-manager ({@code pkg/controller/resourceclaim}):
 * creates the claims of pods' ResourceClaimTemplates and records them in the pod status, keeps
 * {@code status.reservedFor} free of pods that no longer need a claim, deallocates claims nobody
 * uses any more, and deletes generated claims of finished pods.
 *
 * <p>Event handlers only filter and enqueue keys {@code pod:<ns>/<name>} and {@code
 * claim:<ns>/<name>} into one rate-limited queue named {@code resource_claim}; all API calls happen
 * in workers, so a key is handled by one worker at a time, and failures are retried with
 * client-go's default controller backoff (the queue and worker loop of {@code controllerutil}).
 * Logging: V(2) state changes, V(5) per-object decisions, V(6) event handling.
 */
public final class ResourceClaimController {
  /** The controller's name in kube-controller-manager, also its logger's name. */
  public static final String NAME = "resourceclaim-controller";

  /** Upstream's queue name (label {@code name} of the {@code workqueue_*} metrics). */
  public static final String QUEUE_NAME = "resource_claim";

  static final String CLAIM_KEY_PREFIX = "claim:";
  static final String POD_KEY_PREFIX = "pod:";

  /** Upstream maxUIDCacheEntries: how many deleted pods are remembered. */
  static final int MAX_UID_CACHE_ENTRIES = 500;

  /**
   * How long a claim this controller created is remembered for the owner lookup; very long on
   * purpose, as upstream: the informer normally catches up within milliseconds.
   */
  static final Duration CLAIM_CACHE_TTL = Duration.ofHours(1);

  private final Deps deps;
  private final RateLimitingQueue<String> queue;
  private final List<BooleanSupplier> synced;
  private final SyncPod syncPod;
  private final SyncClaim syncClaim;

  ResourceClaimController(
      Deps deps, RateLimitingQueue<String> queue, List<BooleanSupplier> synced) {
    this.deps = deps;
    this.queue = queue;
    this.synced = synced;
    this.syncPod = new SyncPod(deps);
    this.syncClaim = new SyncClaim(deps);
  }

  /**
   * Wires the controller to the shared informers of {@code informers} (adding its indexes, so call
   * before the factory starts) and registers its event handlers for the lifetime of {@code ctx}.
   * Warnings about pods go to {@code recorder}. Metrics ({@code resourceclaim_controller_*} and the
   * queue's {@code workqueue_*}) go to {@code registry}.
   */
  public static ResourceClaimController create(
      Ctx ctx,
      KubernetesClient client,
      InformerFactory informers,
      EventRecorder recorder,
      PrometheusRegistry registry,
      WorkQueueMetrics queueMetrics,
      FeatureGates gates) {
    Deps.Features features =
        new Deps.Features(
            gates.enabled(Feature.DRA_ADMIN_ACCESS),
            gates.enabled(Feature.DRA_PRIORITIZED_LIST),
            gates.enabled(Feature.DRA_EXTENDED_RESOURCE),
            gates.enabled(Feature.DRA_WORKLOAD_RESOURCE_CLAIMS));
    SharedIndexInformer<Pod> pods = informers.informer(Pod.class);
    SharedIndexInformer<ResourceClaim> claims = informers.informer(ResourceClaim.class);
    SharedIndexInformer<ResourceClaimTemplate> templates =
        informers.informer(ResourceClaimTemplate.class);
    pods.addIndexers(
        Map.of(
            Indexes.POD_RESOURCE_CLAIM_INDEX,
            pod -> Indexes.podResourceClaims(pod, features.extendedResource())));
    claims.addIndexers(Map.of(Indexes.CLAIM_POD_OWNER_INDEX, Indexes::claimPodOwner));
    Lister<ResourceClaim> claimLister = Lister.of(claims);
    Deps deps =
        new Deps(
            client,
            Lister.of(pods),
            claimLister,
            new MutationCache<>(claims.getIndexer(), ctx.clock(), CLAIM_CACHE_TTL, true),
            Lister.of(templates),
            (pod, reason, action, note) ->
                recorder.eventf(pod, null, EventRecorder.WARNING, reason, action, "%s", note),
            ResourceClaimMetrics.create(registry, claimLister::list),
            new UidCache(MAX_UID_CACHE_ENTRIES),
            features,
            Deps.PodGroups.fromApi(client));
    RateLimitingQueue<String> queue = QueueController.defaultQueue(ctx, QUEUE_NAME, queueMetrics);
    ResourceClaimController c =
        new ResourceClaimController(
            deps, queue, List.of(pods::hasSynced, claims::hasSynced, templates::hasSynced));
    c.addHandlers(ctx, pods, claims);
    return c;
  }

  private void addHandlers(
      Ctx ctx, SharedIndexInformer<Pod> pods, SharedIndexInformer<ResourceClaim> claims) {
    Logger log = ctx.logger();
    Handlers.add(
        ctx,
        pods,
        new ResourceEventHandler<Pod>() {
          @Override
          public void onAdd(Pod pod) {
            enqueuePod(log, pod, false);
          }

          @Override
          public void onUpdate(Pod oldPod, Pod newPod) {
            enqueuePod(log, newPod, false);
          }

          @Override
          public void onDelete(Pod pod, boolean finalStateUnknown) {
            enqueuePod(log, pod, true);
          }
        });
    Handlers.add(
        ctx,
        claims,
        new ResourceEventHandler<ResourceClaim>() {
          @Override
          public void onAdd(ResourceClaim claim) {
            logClaim(log, "New claim", claim);
            enqueueResourceClaim(log, claim, false);
          }

          @Override
          public void onUpdate(ResourceClaim oldClaim, ResourceClaim newClaim) {
            logClaim(log, "Updated claim", newClaim);
            enqueueResourceClaim(log, newClaim, false);
          }

          @Override
          public void onDelete(ResourceClaim claim, boolean finalStateUnknown) {
            logClaim(log, "Deleted claim", claim);
            enqueueResourceClaim(log, claim, true);
          }
        });
  }

  private static void logClaim(Logger log, String msg, ResourceClaim claim) {
    Logger v6 = log.v(6);
    if (v6.enabled()) {
      v6.info(msg, "claimDump", claim);
    }
  }

  /** The controller's metrics (for tests and the benchmark). */
  Deps deps() {
    return deps;
  }

  ResourceClaimMetrics metrics() {
    return deps.metrics();
  }

  RateLimitingQueue<String> queue() {
    return queue;
  }

  /** Whether the informers this controller reads have listed once. */
  public boolean hasSynced() {
    return synced.stream().allMatch(BooleanSupplier::getAsBoolean);
  }

  // ---- event handlers: filter and enqueue only ----

  /** Upstream enqueuePod: claims of a pod that stopped needing them, and the pod if it has work. */
  void enqueuePod(Logger log, Pod pod, boolean deleted) {
    String extended =
        deps.features().extendedResource() ? Pods.extendedResourceClaimName(pod) : null;
    if (Pods.resourceClaims(pod).isEmpty() && extended == null) {
      return;
    }
    // Every pod event comes here: the V(6) messages' values are built only when written.
    Logger v6 = log.v(6);
    boolean trace = v6.enabled();
    if (deleted) {
      if (trace) {
        v6.info("Pod got deleted", "pod", kobj(pod));
      }
      deps.deletedPods().add(Pods.uid(pod));
    }
    Pods.Decision needs = Pods.needsClaims(pod, deleted);
    if (!needs.yes()) {
      enqueueClaimsOf(v6, pod, extended, needs.reason());
    }
    Pods.Decision work = podNeedsWork(pod);
    if (work.yes()) {
      if (trace) {
        v6.info("Enqueuing pod", "pod", kobj(pod), "reason", work.reason());
      }
      queue.add(
          POD_KEY_PREFIX + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName());
    } else if (trace) {
      v6.info("Not enqueuing pod", "pod", kobj(pod), "reason", work.reason());
    }
  }

  /** Releasing reservations: re-check every claim the pod used. */
  private void enqueueClaimsOf(Logger v6, Pod pod, String extended, String reason) {
    String ns = pod.getMetadata().getNamespace();
    List<String> names = new ArrayList<>();
    for (PodResourceClaim podClaim : Pods.resourceClaims(pod)) {
      if (ResourceClaims.name(pod, podClaim) instanceof PodClaimName.Named named) {
        names.add(named.name());
      }
    }
    if (extended != null) {
      names.add(extended);
    }
    for (String name : names) {
      String key = CLAIM_KEY_PREFIX + ns + "/" + name;
      if (v6.enabled()) {
        v6.info("Process claim", "pod", kobj(pod), "key", key, "reason", reason);
      }
      queue.add(key);
    }
  }

  /** Upstream podNeedsWork: whether a worker has something to do for this pod. */
  Pods.Decision podNeedsWork(Pod pod) {
    if (Pods.isDeleted(pod)) {
      return new Pods.Decision(false, "pod is deleted");
    }
    for (PodResourceClaim podClaim : Pods.resourceClaims(pod)) {
      PodClaimName claimName = ResourceClaims.name(pod, podClaim);
      if (claimName instanceof PodClaimName.Unavailable u) {
        return new Pods.Decision(true, u.message());
      }
      if (!(claimName instanceof PodClaimName.Named named)) {
        continue; // determined earlier that no claim is needed
      }
      Optional<ResourceClaim> claim =
          deps.claims().get(pod.getMetadata().getNamespace(), named.name());
      if (claim.isEmpty()) {
        if (podClaim.getResourceClaimTemplateName() != null) {
          return new Pods.Decision(true, "must create ResourceClaim from template");
        }
        return new Pods.Decision(false, "claim is missing and must be created by user");
      }
      if (named.mustCheckOwner() && !ResourceClaims.isForPod(pod, claim.get())) {
        return new Pods.Decision(false, "conflicting claim needs to be removed by user");
      }
      if (Pods.isScheduled(pod)
          && !Pods.isTerminal(pod)
          && SyncPod.needsReservation(pod, claim.get())) {
        return new Pods.Decision(true, "need to reserve claim for pod");
      }
    }
    return new Pods.Decision(false, "nothing to do");
  }

  /** Upstream enqueueResourceClaim: the claim itself, and the known pods that use it. */
  void enqueueResourceClaim(Logger log, ResourceClaim claim, boolean deleted) {
    String ns = claim.getMetadata().getNamespace();
    String name = claim.getMetadata().getName();
    Logger v6 = log.v(6);
    if (!deleted) {
      // At start-up every claim comes through here, also those already being deleted: each
      // needs a check for stale reservations and a left-over finalizer (upstream #132334).
      String key = CLAIM_KEY_PREFIX + ns + "/" + name;
      if (v6.enabled()) {
        v6.info("Claim is new or updated, process it", "claim", kobj(claim), "key", key);
      }
      queue.add(key);
    } else if (v6.enabled()) {
      v6.info("Claim got deleted, nothing to do", "claim", kobj(claim));
    }
    for (Pod pod : deps.pods().byIndex(Indexes.POD_RESOURCE_CLAIM_INDEX, ns + "/" + name)) {
      enqueuePod(log, pod, false);
    }
  }

  // ---- workers ----

  /**
   * Waits for the informers, then runs {@code workers} workers until {@code ctx} is cancelled; then
   * drains: the queue stops taking keys, keys being processed finish, and the workers exit before
   * this returns (the loop every controller shares, {@link QueueWorkers}).
   */
  public void run(Ctx ctx, int workers) throws InterruptedException {
    Logger log = ctx.logger();
    log.info("Starting resource claim controller", "workers", workers);
    try {
      QueueWorkers.run(
          ctx, "resource-claim-worker", queue, workers, this::hasSynced, this::syncHandler);
    } finally {
      log.info("Shutting down resource claim controller");
    }
  }

  /**
   * One key: sync it; forget its backoff on success, retry it rate-limited on failure. False once
   * the queue has shut down.
   */
  boolean processNextWorkItem(Ctx ctx) {
    return QueueWorkers.processNextWorkItem(ctx, queue, this::syncHandler);
  }

  /** Upstream syncHandler: dispatches a key to syncPod or syncClaim. */
  void syncHandler(Ctx ctx, String key) {
    int sep = key.indexOf(':');
    int slash = key.indexOf('/', sep + 1);
    if (sep < 0 || slash < 0) {
      throw new SyncException("unexpected key format: \"" + key + "\"");
    }
    String prefix = key.substring(0, sep + 1);
    String namespace = key.substring(sep + 1, slash);
    String name = key.substring(slash + 1);
    switch (prefix) {
      case POD_KEY_PREFIX ->
          syncPod.sync(ctx.withValues("pod", kref(namespace, name)), namespace, name);
      case CLAIM_KEY_PREFIX ->
          syncClaim.sync(ctx.withValues("claim", kref(namespace, name)), namespace, name);
      default -> throw new SyncException("unexpected key prefix: \"" + prefix + "\"");
    }
  }
}
