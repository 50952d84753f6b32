package io.jdra.controllers.devicetainteviction;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRule;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import io.jdra.controllers.devicetainteviction.WorkItem.PodItem;
import io.jdra.controllers.devicetainteviction.WorkItem.RuleItem;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.logging.Logger;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.RateLimiters;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.jdra.runtime.workqueue.WorkQueues;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Evicts pods whose allocated devices carry a NoExecute taint they do not tolerate (Kubernetes'
 * {@code pkg/controller/devicetainteviction}), and reports progress in the status of
 * DeviceTaintRules.
 *
 * <p>Informer events only update the {@link EvictionTracker} and enqueue work: a pod item when a
 * pod must be deleted (now or, with {@code tolerationSeconds}, later), a rule item when a rule's
 * {@code EvictionInProgress} condition may change. One rate-limited queue (named as the controller)
 * carries both; a bounded number of workers make all API calls, so at most that many deletions are
 * in flight, and a failed deletion is retried with exponential backoff for as long as the eviction
 * is still wanted. There is no timer or thread per pod: a pod item re-queues itself with the
 * remaining delay until it is due.
 *
 * <p>Lifecycle: construct (creates the informers it needs in the factory), start the factory, then
 * {@link #run(Ctx)} until the context is cancelled. No global state; several instances may run in
 * one process. Thread-safe.
 */
public final class DeviceTaintEvictionController {
  /** The controller's upstream name: queue name, event source and field manager. */
  public static final String NAME = "device-taint-eviction-controller";

  /** Upstream's default for {@code --concurrent-device-taint-eviction-syncs}. */
  public static final int DEFAULT_WORKERS = 10;

  static final String CONDITION_REASON = "DeletionByDeviceTaintManager";
  static final String CONDITION_MESSAGE = "Device Taint manager: deleting due to NoExecute taint";

  /**
   * @param name the controller name (queue name, field manager)
   * @param workers how many items are processed at once (and so the most deletions in flight)
   */
  public record Options(String name, int workers) {
    public Options {
      Objects.requireNonNull(name, "name");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("controller name is empty");
      }
      if (workers < 1) {
        throw new IllegalArgumentException("workers must be at least 1, got " + workers);
      }
    }

    public static Options defaults() {
      return new Options(NAME, DEFAULT_WORKERS);
    }
  }

  private enum Outcome {
    DELETED,
    GONE,
    TERMINATING
  }

  private final Options options;
  private final Clock clock;
  private final EvictionClient api;
  private final RateLimitingQueue<WorkItem> queue;
  private final EvictionTracker tracker;
  private final DeviceTaintEvictionMetrics metrics;
  private final PodEvents events;
  private volatile EventRecorder recorder;
  private final List<Registration<?>> registrations = new ArrayList<>();

  private record Registration<T>(SharedIndexInformer<T> informer, BiConsumer<T, T> handler) {}

  /**
   * A controller on the informers of {@code informers} (Pods, ResourceClaims, ResourceSlices, and
   * DeviceTaintRules v1beta2 when {@code DRADeviceTaintRules} is on). {@code queueMetrics} may be
   * null.
   */
  public static DeviceTaintEvictionController create(
      InformerFactory informers,
      FeatureGates features,
      Options options,
      Clock clock,
      PrometheusRegistry registry,
      WorkQueueMetrics queueMetrics) {
    RateLimitingQueue<WorkItem> queue =
        WorkQueues.rateLimiting(
            options.name(), RateLimiters.defaultController(clock), clock, queueMetrics);
    var c =
        new DeviceTaintEvictionController(
            options,
            clock,
            new Fabric8EvictionClient(informers.client()),
            informers.lister(Pod.class),
            queue,
            DeviceTaintEvictionMetrics.create(registry),
            null,
            features.enabled(Feature.DRA_EXTENDED_RESOURCE));
    c.register(informers.informer(Pod.class), c.tracker::handlePodChange);
    c.register(informers.informer(ResourceClaim.class), c.tracker::handleClaimChange);
    c.register(informers.informer(ResourceSlice.class), c.tracker::handleSliceChange);
    if (features.enabled(Feature.DRA_DEVICE_TAINT_RULES)) {
      // Without the gate nothing is done with or for DeviceTaintRules, as upstream.
      c.register(informers.informer(DeviceTaintRule.class), c.tracker::handleRuleChange);
    }
    return c;
  }

  DeviceTaintEvictionController(
      Options options,
      Clock clock,
      EvictionClient api,
      Lister<Pod> pods,
      RateLimitingQueue<WorkItem> queue,
      DeviceTaintEvictionMetrics metrics,
      PodEvents events,
      boolean extendedResources) {
    this.options = options;
    this.clock = clock;
    this.api = api;
    this.queue = queue;
    this.metrics = metrics;
    this.events = events != null ? events : this::record;
    this.tracker =
        new EvictionTracker(
            Logger.named(options.name()), clock, pods, queue, this.events, extendedResources);
  }

  private <T> void register(SharedIndexInformer<T> informer, BiConsumer<T, T> handler) {
    registrations.add(new Registration<>(informer, handler));
  }

  /**
   * Registers the event handlers, waits for the informers to sync, runs the workers until {@code
   * ctx} is cancelled, then shuts the queue down and waits for the workers. Pod events go to {@code
   * recorder} (Normal, reason {@code DeviceTaintManagerEviction}, regarding the pod; the caller
   * owns and closes it). Returns normally on cancellation; throws when the controller cannot run.
   */
  public void run(Ctx ctx, EventRecorder recorder) throws Exception {
    this.recorder = recorder;
    Logger logger = ctx.logger();
    logger.info("Starting", "controller", options.name(), "numWorkers", options.workers());
    List<Thread> workers = new ArrayList<>();
    try {
      for (Registration<?> r : registrations) {
        addHandler(ctx, r);
      }
      if (!waitForSync(ctx)) {
        return;
      }
      logger.v(1).info("Underlying informers have synced");
      for (int i = 0; i < options.workers(); i++) {
        Ctx workerCtx = ctx.withName("worker-" + i);
        workers.add(
            Thread.ofPlatform()
                .daemon()
                .name(options.name() + "-worker-" + i)
                .start(() -> worker(workerCtx)));
      }
      ctx.done().join();
    } finally {
      logger.v(3).info("Shutting down work queue");
      queue.shutDown();
      for (Thread t : workers) {
        t.join();
      }
      logger.info("Shut down controller", "controller", options.name());
    }
  }

  private <T> void addHandler(Ctx ctx, Registration<T> r) {
    Handlers.add(
        ctx,
        r.informer(),
        new ResourceEventHandler<T>() {
          @Override
          public void onAdd(T obj) {
            call(ctx, null, obj, r.handler());
          }

          @Override
          public void onUpdate(T oldObj, T newObj) {
            call(ctx, oldObj, newObj, r.handler());
          }

          @Override
          public void onDelete(T obj, boolean deletedFinalStateUnknown) {
            call(ctx, obj, null, r.handler());
          }
        });
  }

  private static <T> void call(Ctx ctx, T oldObj, T newObj, BiConsumer<T, T> handler) {
    try {
      handler.accept(oldObj, newObj);
    } catch (RuntimeException e) {
      Object obj = newObj != null ? newObj : oldObj;
      ctx.logger().error(e, "Handling informer event failed", "object", describe(obj));
    }
  }

  private static String describe(Object obj) {
    if (obj instanceof HasMetadata m) {
      return m.getKind() + " " + m.getMetadata().getNamespace() + "/" + m.getMetadata().getName();
    }
    return String.valueOf(obj);
  }

  private boolean waitForSync(Ctx ctx) {
    // The caller started the informer factory; the registrations' informers are all in it.
    while (!ctx.isCancelled()) {
      boolean synced = true;
      for (Registration<?> r : registrations) {
        synced &= r.informer().hasSynced();
      }
      if (synced) {
        return true;
      }
      try {
        ctx.sleep(Duration.ofMillis(50));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return false;
  }

  private void worker(Ctx ctx) {
    while (processNextWorkItem(ctx)) {
      // Until the queue is shut down.
    }
  }

  /**
   * Takes one item (with the mock queue of unit tests: returns false at once when none is ready),
   * handles it and re-queues it as needed. Returns false when the queue has nothing more to give.
   */
  boolean processNextWorkItem(Ctx ctx) {
    WorkItem item = queue.get();
    if (item == null) {
      return false;
    }
    try {
      Duration again = handle(ctx, item);
      if (again.isPositive()) {
        ctx.logger().v(5).info("Checking work item again later", "item", item, "delay", again);
        queue.addAfter(item, again);
      } else {
        queue.forget(item);
      }
    } catch (RuntimeException e) {
      ctx.logger().v(3).info("Processing work item failed, will retry", "item", item, "err", e);
      queue.addRateLimited(item);
    } finally {
      queue.done(item);
    }
    return true;
  }

  private Duration handle(Ctx ctx, WorkItem item) {
    return switch (item) {
      case PodItem p -> maybeDeletePod(ctx.withValues("pod", p.pod()), p.pod());
      case RuleItem r -> maybeUpdateRuleStatus(ctx.withValues("deviceTaintRule", r.name()), r);
    };
  }

  /** Deletes the pod if its eviction is due; returns the remaining delay if it is not yet. */
  private Duration maybeDeletePod(Ctx ctx, PodRef ref) {
    Eviction eviction = tracker.pendingEviction(ref);
    ctx.logger().v(5).info("Processing pod deletion work item", "eviction", eviction);
    if (eviction == null) {
      return Duration.ZERO;
    }
    Duration left = Duration.between(clock.now(), eviction.when());
    if (left.isPositive()) {
      return left;
    }
    Outcome outcome = addConditionAndDeletePod(ref);
    tracker.evictionDone(ref, eviction, outcome == Outcome.DELETED, RuleConditions.STATUS_PERIOD);
    if (outcome == Outcome.DELETED) {
      Duration latency = clock.since(eviction.when());
      ctx.logger().v(2).info("Evicted pod by deleting it", "latency", latency, "reason", eviction);
      metrics.podDeletionsTotal.inc();
      metrics.podDeletionDuration.observe(latency.toNanos() / 1e9);
    }
    return Duration.ZERO;
  }

  private Outcome addConditionAndDeletePod(PodRef ref) {
    Pod pod = api.getPod(ref.namespace(), ref.name()).orElse(null);
    if (pod == null || !Objects.equals(pod.getMetadata().getUid(), ref.uid())) {
      // Gone, perhaps replaced by another pod of the same name: nothing to evict.
      return Outcome.GONE;
    }
    if (pod.getMetadata().getDeletionTimestamp() != null) {
      return Outcome.TERMINATING;
    }
    if (tracker.markForDeletion(ref)) {
      events.emit(ref, PodEvents.MARKING);
    }
    PodCondition condition = disruptionTarget(pod, clock.now());
    if (condition != null) {
      api.setPodCondition(pod, condition);
    }
    return api.deletePod(ref) ? Outcome.DELETED : Outcome.GONE;
  }

  /**
   * The DisruptionTarget condition to set, or null when the pod has it already (upstream's
   * UpdatePodCondition: the transition time only changes with the status).
   */
  static PodCondition disruptionTarget(Pod pod, Instant now) {
    PodCondition old = null;
    if (pod.getStatus() != null && pod.getStatus().getConditions() != null) {
      old =
          pod.getStatus().getConditions().stream()
              .filter(c -> "DisruptionTarget".equals(c.getType()))
              .findFirst()
              .orElse(null);
    }
    if (old != null
        && "True".equals(old.getStatus())
        && CONDITION_REASON.equals(old.getReason())
        && CONDITION_MESSAGE.equals(old.getMessage())) {
      return null;
    }
    String transition =
        old != null && "True".equals(old.getStatus()) && old.getLastTransitionTime() != null
            ? old.getLastTransitionTime()
            : now.truncatedTo(ChronoUnit.SECONDS).toString();
    return new PodConditionBuilder()
        .withType("DisruptionTarget")
        .withStatus("True")
        .withReason(CONDITION_REASON)
        .withMessage(CONDITION_MESSAGE)
        .withLastTransitionTime(transition)
        .build();
  }

  private Duration maybeUpdateRuleStatus(Ctx ctx, RuleItem item) {
    ctx.logger().v(5).info("Processing DeviceTaintRule status work item");
    DeviceTaintRule rule = tracker.rule(item);
    if (rule == null) {
      return Duration.ZERO;
    }
    Duration wait = RuleConditions.waitBeforeUpdate(rule, clock.now());
    if (wait.isPositive()) {
      return wait;
    }
    Condition condition = RuleConditions.desired(rule, tracker.counts(rule), clock.now());
    if (condition == null) {
      return Duration.ZERO;
    }
    ctx.logger().v(4).info("Calculated new condition", "condition", condition);
    api.applyRuleCondition(item.name(), item.uid(), condition, options.name());
    return Duration.ZERO;
  }

  /** Upstream's pod events; the action is what the controller does about the pod. */
  private void record(PodRef pod, String note) {
    EventRecorder r = recorder;
    if (r == null) {
      return;
    }
    Pod regarding =
        new PodBuilder()
            .withNewMetadata()
            .withNamespace(pod.namespace())
            .withName(pod.name())
            .withUid(pod.uid())
            .endMetadata()
            .build();
    String action = PodEvents.MARKING.equals(note) ? "Delete" : "CancelDelete";
    r.eventf(regarding, null, EventRecorder.NORMAL, PodEvents.REASON, action, note);
  }

  // ---- for tests -------------------------------------------------------------------------------

  EvictionTracker tracker() {
    return tracker;
  }
}
