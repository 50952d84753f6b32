package io.jdra.scheduler.metrics;

import io.jdra.scheduler.queue.SchedulingQueue;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The scheduler's metrics with upstream names, labels and buckets, created on an injected registry
 * (one instance per scheduler, so tests run in parallel).
 */
public final class SchedulerMetrics {
  public static final String SCHEDULED = "scheduled";
  public static final String UNSCHEDULABLE = "unschedulable";
  public static final String ERROR = "error";

  private final Counter scheduleAttempts;
  private final Histogram attemptDuration;
  private final Histogram sliDuration;
  private final Histogram pluginDuration;
  private final ConcurrentHashMap<
          String, ConcurrentHashMap<String, ConcurrentHashMap<String, DistributionDataPoint>>>
      pluginPoints = new ConcurrentHashMap<>();
  private final Counter claimCreates;
  private final Histogram bindingConditionsDuration;
  private final Counter bindingConditionsAllocations;

  public SchedulerMetrics(
      PrometheusRegistry registry, Supplier<SchedulingQueue.PendingCounts> pending) {
    scheduleAttempts =
        Counter.builder()
            .name("scheduler_schedule_attempts_total")
            .help(
                "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.")
            .labelNames("result", "profile")
            .register(registry);
    attemptDuration =
        Histogram.builder()
            .name("scheduler_scheduling_attempt_duration_seconds")
            .help("Scheduling attempt latency in seconds (scheduling algorithm + binding)")
            .labelNames("result", "profile")
            .classicOnly()
            .classicExponentialUpperBounds(0.001, 2, 15)
            .register(registry);
    sliDuration =
        Histogram.builder()
            .name("scheduler_pod_scheduling_sli_duration_seconds")
            .help(
                "E2e latency for a pod being scheduled, from the time the pod enters the scheduling queue and might involve multiple scheduling attempts.")
            .labelNames("attempts")
            .classicOnly()
            .classicExponentialUpperBounds(0.01, 2, 20)
            .register(registry);
    pluginDuration =
        Histogram.builder()
            .name("scheduler_plugin_execution_duration_seconds")
            .help("Duration for running a plugin at a specific extension point.")
            .labelNames("plugin", "extension_point", "status")
            .classicOnly()
            .classicExponentialUpperBounds(0.00001, 1.5, 20)
            .register(registry);
    claimCreates =
        Counter.builder()
            .name("scheduler_resourceclaim_creates_total")
            .help("Number of ResourceClaims creation requests within scheduler")
            .labelNames("status")
            .register(registry);
    bindingConditionsDuration =
        Histogram.builder()
            .name("scheduler_dra_bindingconditions_prebind_duration_seconds")
            .help("Time spent in PreBind waiting for the device binding conditions of DRA claims.")
            .labelNames("driver", "result")
            .classicOnly()
            .classicExponentialUpperBounds(0.1, 2, 14)
            .register(registry);
    bindingConditionsAllocations =
        Counter.builder()
            .name("scheduler_dra_bindingconditions_allocations_total")
            .help("Number of DRA allocations that used devices with binding conditions.")
            .labelNames("driver", "result")
            .register(registry);
    GaugeWithCallback.builder()
        .name("scheduler_pending_pods")
        .help(
            "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.")
        .labelNames("queue")
        .callback(cb -> {
          SchedulingQueue.PendingCounts c = pending.get();
          cb.call(c.active(), "active");
          cb.call(c.backoff(), "backoff");
          cb.call(c.unschedulable(), "unschedulable");
          cb.call(c.gated(), "gated");
        })
        .register(registry);
  }

  public void attempt(String result, String profile, Duration d) {
    scheduleAttempts.labelValues(result, profile).inc();
    attemptDuration.labelValues(result, profile).observe(d.toNanos() / 1e9);
  }

  public void podScheduled(int attempts, Duration sinceFirstAttempt) {
    sliDuration
        .labelValues(attempts >= 16 ? "16+" : Integer.toString(attempts))
        .observe(sinceFirstAttempt.toNanos() / 1e9);
  }

  /**
   * One plugin call. In a sampled cycle this runs for every Filter plugin on every node evaluated;
   * the label children are kept in nested maps whose keys are the callers' constant strings (hash
   * kept, equal by identity) instead of the metric's lookup by a list of the three labels.
   */
  public void plugin(String plugin, String extensionPoint, String status, long nanos) {
    pluginPoints
        .computeIfAbsent(plugin, k -> new ConcurrentHashMap<>())
        .computeIfAbsent(extensionPoint, k -> new ConcurrentHashMap<>())
        .computeIfAbsent(status, k -> pluginDuration.labelValues(plugin, extensionPoint, status))
        .observe(nanos / 1e9);
  }

  public void claimCreate(String status) {
    claimCreates.labelValues(status).inc();
  }

  public void bindingConditions(String driver, String result, Duration d) {
    bindingConditionsAllocations.labelValues(driver, result).inc();
    bindingConditionsDuration.labelValues(driver, result).observe(d.toNanos() / 1e9);
  }
}
