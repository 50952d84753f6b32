package io.jdra.scheduler;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.scheduler.cache.SchedulerCache;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.Framework;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.QueuedPodInfo;
import io.jdra.scheduler.framework.Status;
import io.jdra.scheduler.metrics.SchedulerMetrics;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResources;
import io.jdra.scheduler.plugins.dynamicresources.NodeAllocatableClaims;
import io.jdra.scheduler.queue.PriorityQueue;
import io.jdra.scheduler.queue.SchedulingQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The scheduling loop (upstream {@code Scheduler.ScheduleOne}): pops a pod, runs the scheduling
 * cycle on this thread (snapshot, {@link SchedulingAlgorithm}, assume, Reserve) and hands the
 * binding cycle (PreBind, Bind) to a virtual thread of its own, so the next pod is scheduled while
 * the API calls of the previous one are in flight. Failures go back to the queue with the plugins
 * that rejected the pod, a {@code FailedScheduling} event and the pod's {@code PodScheduled=False}
 * condition.
 *
 * <p>Created and wired by {@link SchedulerServer}; thread-safe where the pieces it uses are.
 */
public final class Scheduler {
  /** Percentage of scheduling cycles whose plugin durations are recorded, as upstream. */
  static final int PLUGIN_METRICS_PERCENT = 10;

  /** Upstream's {@code validation.NoteLengthLimit}. */
  static final int NOTE_LENGTH_LIMIT = 1024;

  private final Ctx ctx;
  private final KubernetesClient client;
  private final Framework framework;
  private final SchedulingAlgorithm algorithm;
  private final SchedulingQueue queue;
  private final SchedulerCache cache;
  private final DraManager draManager;
  private final EventRecorder events;
  private final SchedulerMetrics metrics;
  private final Function<String, Pod> currentPod;
  private final ExecutorService binders;
  private final ExecutorService statusWriter;

  Scheduler(
      Ctx ctx,
      KubernetesClient client,
      Framework framework,
      SchedulingAlgorithm algorithm,
      SchedulingQueue queue,
      SchedulerCache cache,
      DraManager draManager,
      EventRecorder events,
      SchedulerMetrics metrics,
      Function<String, Pod> currentPod) {
    this.ctx = ctx;
    this.client = client;
    this.framework = framework;
    this.algorithm = algorithm;
    this.queue = queue;
    this.cache = cache;
    this.draManager = draManager;
    this.events = events;
    this.metrics = metrics;
    this.currentPod = currentPod;
    // One virtual thread per binding cycle, as upstream runs a goroutine per cycle: a cycle that
    // waits (PreBind's binding conditions, up to the binding timeout) holds no platform thread, so
    // any number of waiting cycles cannot keep other pods from binding.
    this.binders =
        Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("scheduler-binding-", 0).factory());
    this.statusWriter =
        Executors.newSingleThreadExecutor(r -> {
          Thread t = new Thread(r, "scheduler-pod-status");
          t.setDaemon(true);
          return t;
        });
  }

  /** Runs the loop until the context is cancelled or the queue is closed. */
  void run() {
    ctx.logger().v(3).info("Starting scheduling loop", "profile", framework.profileName());
    while (!ctx.isCancelled()) {
      QueuedPodInfo p;
      try {
        p = queue.pop();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      if (p == null) {
        break;
      }
      try {
        scheduleOne(p);
      } catch (RuntimeException e) {
        ctx.logger().error(e, "Scheduling attempt failed unexpectedly", "pod", p.key());
        handleFailure(p, Status.error(e), "", null);
      }
    }
    ctx.logger().v(3).info("Scheduling loop stopped");
  }

  void scheduleOne(QueuedPodInfo p) {
    PodInfo pod = p.podInfo();
    Ctx pctx = ctx.withValues("pod", pod.key());
    Pod current = currentPod.apply(pod.uid());
    if (current == null || cache.contains(pod.uid()) || isBound(current)) {
      queue.done(pod.uid());
      return;
    }
    Instant start = ctx.clock().now();
    pctx.logger().v(3).info("Attempting to schedule pod");
    CycleState state = new CycleState();
    // Upstream samples plugin durations in 10% of the cycles (pluginMetricsSamplePercent).
    state.setRecordPluginMetrics(
        java.util.concurrent.ThreadLocalRandom.current().nextInt(100) < PLUGIN_METRICS_PERCENT);
    SchedulingAlgorithm.Result result = algorithm.schedule(pctx, state, pod, cache.snapshot());
    switch (result) {
      case SchedulingAlgorithm.Failed f -> {
        metrics.attempt(SchedulerMetrics.ERROR, framework.profileName(), ctx.clock().since(start));
        handleFailure(p, f.status(), f.status().message(), null);
      }
      case SchedulingAlgorithm.FitError fe -> onFitError(pctx, p, state, fe, start);
      case SchedulingAlgorithm.Scheduled s -> assumeAndBind(pctx, p, state, s.node(), start);
    }
  }

  private void onFitError(
      Ctx pctx, QueuedPodInfo p, CycleState state, SchedulingAlgorithm.FitError fe, Instant start) {
    if (framework.hasPostFilterPlugins() && fe.diagnosis().preFilterMsg() == null) {
      Status post =
          framework.runPostFilterPlugins(pctx, state, p.podInfo(), fe.diagnosis().nodeToStatus());
      if (post.isError()) {
        fe.diagnosis().setPostFilterMsg(post.message());
      } else if (!post.message().isEmpty()) {
        fe.diagnosis().setPostFilterMsg(post.message() + ".");
      }
    }
    String msg = fe.message();
    String why = framework.explainFailure(state, p.podInfo());
    if (why != null && !why.isEmpty()) {
      msg = msg + " " + why;
    }
    metrics.attempt(
        SchedulerMetrics.UNSCHEDULABLE, framework.profileName(), ctx.clock().since(start));
    p.unschedulablePlugins().addAll(fe.diagnosis().unschedulablePlugins());
    p.pendingPlugins().addAll(fe.diagnosis().pendingPlugins());
    pctx.logger().v(2).info("Unable to schedule pod; no fit; waiting", "err", msg);
    handleFailure(p, Status.unschedulable(msg), msg, fe);
  }

  private void assumeAndBind(
      Ctx pctx, QueuedPodInfo p, CycleState state, String node, Instant start) {
    PodInfo pod = p.podInfo();
    cache.assumePod(withNodeAllocatableStatuses(pod, state, node), node);
    Status r = framework.runReservePlugins(pctx, state, pod, node);
    if (!Status.ok(r)) {
      framework.runUnreservePlugins(pctx, state, pod, node);
      cache.forgetPod(pod);
      if (r.isRejected()) {
        p.unschedulablePlugins().add(r.plugin());
      }
      metrics.attempt(
          r.isError() ? SchedulerMetrics.ERROR : SchedulerMetrics.UNSCHEDULABLE,
          framework.profileName(),
          ctx.clock().since(start));
      handleFailure(p, r, r.message(), null);
      return;
    }
    binders.execute(() -> bindingCycle(pctx, p, state, node, start));
  }

  /**
   * The pod as assumed: with the node-allocatable amounts its claims take on the node in its status
   * (DRANodeAllocatableResources), so the node's requested resources include them before PreBind
   * writes that status (upstream's schedule_one does the same to the assumed pod).
   */
  private static PodInfo withNodeAllocatableStatuses(PodInfo pod, CycleState state, String node) {
    List<NodeAllocatableClaims.ClaimStatus> na =
        DynamicResources.nodeAllocatableStatuses(state, node);
    if (na.isEmpty()) {
      return pod;
    }
    Pod copy =
        new PodBuilder(pod.pod())
            .editOrNewStatus()
            .withNodeAllocatableResourceClaimStatuses(
                na.stream().map(NodeAllocatableClaims.ClaimStatus::toFabric8).toList())
            .endStatus()
            .build();
    return new PodInfo(copy);
  }

  private void bindingCycle(
      Ctx pctx, QueuedPodInfo p, CycleState state, String node, Instant start) {
    PodInfo pod = p.podInfo();
    Status s;
    try {
      s = stopping();
      if (Status.ok(s)) {
        s = framework.runPreBindPlugins(pctx, state, pod, node);
      }
      if (Status.ok(s)) {
        s = stopping();
      }
      if (Status.ok(s)) {
        s = framework.runBindPlugins(pctx, state, pod, node);
      }
    } catch (RuntimeException e) {
      s = Status.error(e);
    }
    if (!Status.ok(s)) {
      pctx.logger().error(s.error(), "Binding failed", "node", node, "status", s.toString());
      framework.runUnreservePlugins(pctx, state, pod, node);
      cache.forgetPod(pod);
      metrics.attempt(SchedulerMetrics.ERROR, framework.profileName(), ctx.clock().since(start));
      handleFailure(p, s, s.message(), null);
      return;
    }
    metrics.attempt(SchedulerMetrics.SCHEDULED, framework.profileName(), ctx.clock().since(start));
    metrics.podScheduled(p.attempts(), ctx.clock().since(p.initialAttemptTimestamp()));
    pctx.logger().v(2).info("Successfully bound pod to node", "node", node);
    events.eventf(
        pod.pod(),
        null,
        EventRecorder.NORMAL,
        "Scheduled",
        "Binding",
        "Successfully assigned " + pod.key() + " to " + node);
    queue.done(pod.uid());
  }

  /** Once the scheduler stops, binding cycles make no further API calls. */
  private Status stopping() {
    return ctx.isCancelled() ? Status.error("scheduler is stopping") : Status.success();
  }

  /**
   * Requeues the pod (unless it is gone or bound meanwhile), records FailedScheduling and sets
   * PodScheduled=False with the reason (Unschedulable or SchedulerError).
   */
  void handleFailure(QueuedPodInfo p, Status status, String message, Object fitError) {
    PodInfo pod = p.podInfo();
    try {
      Pod current = currentPod.apply(pod.uid());
      if (current == null || isBound(current)) {
        return;
      }
      queue.addUnschedulableIfNotPresent(p);
      String reason = status.isError() ? "SchedulerError" : "Unschedulable";
      events.eventf(
          pod.pod(),
          null,
          EventRecorder.WARNING,
          "FailedScheduling",
          "Scheduling",
          truncateMessage(message));
      updateCondition(current, reason, message);
    } finally {
      queue.done(pod.uid());
    }
  }

  /**
   * An event's note is at most 1,024 long (upstream's NoteLengthLimit); the condition keeps it all.
   */
  static String truncateMessage(String message) {
    if (message.length() <= NOTE_LENGTH_LIMIT) {
      return message;
    }
    String suffix = " ...";
    return message.substring(0, NOTE_LENGTH_LIMIT - suffix.length()) + suffix;
  }

  private void updateCondition(Pod pod, String reason, String message) {
    List<PodCondition> conds =
        pod.getStatus() == null || pod.getStatus().getConditions() == null
            ? List.of()
            : pod.getStatus().getConditions();
    for (PodCondition c : conds) {
      if ("PodScheduled".equals(c.getType())
          && "False".equals(c.getStatus())
          && Objects.equals(reason, c.getReason())
          && Objects.equals(message, c.getMessage())) {
        return;
      }
    }
    statusWriter.execute(() -> PodStatusPatch.podScheduledFalse(ctx, client, pod, reason, message));
  }

  static boolean isBound(Pod p) {
    return p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty();
  }

  /** How long {@link #stop} waits for binding cycles whose API calls are under way. */
  static final Duration STOP_GRACE = Duration.ofSeconds(60);

  void stop() {
    queue.close();
    binders.shutdown();
    statusWriter.shutdown();
    try {
      // A cycle interrupted in the middle of an API call may still have its write applied after
      // stop returned, when a scheduler started next counts the devices as free: let the calls
      // under way finish (the cancelled context ends binding-condition waits and later calls).
      binders.awaitTermination(STOP_GRACE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    binders.shutdownNow();
    statusWriter.shutdownNow();
  }

  SchedulingQueue queue() {
    return queue;
  }

  DraManager draManager() {
    return draManager;
  }

  static Duration since(Instant a, Instant b) {
    return Duration.between(a, b);
  }

  PriorityQueue priorityQueue() {
    return (PriorityQueue) queue;
  }
}
