package io.jdra.runtime.workqueue;

import io.jdra.runtime.clock.Clock;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@code workqueue_*} metrics of client-go/component-base, label {@code name} (the queue's
 * name), registered on a registry the component owns, so components and tests never share global
 * state. One instance serves all queues of a component.
 *
 * <p>Unfinished work and the longest running processor are computed when scraped, from the start
 * times of the items being processed, instead of by upstream's 500 ms update loop: no thread.
 */
public final class WorkQueueMetrics {
  /** Upstream's buckets: 10 ns up to 1000 s, factor 10. */
  private static final double[] BUCKETS = {
    1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000
  };

  final Gauge depth;
  final Counter adds;
  final Histogram queueLatency;
  final Histogram workDuration;
  final Counter retries;
  private final List<QueueMetrics<?>> queues = new CopyOnWriteArrayList<>();

  private WorkQueueMetrics(PrometheusRegistry registry) {
    depth =
        Gauge.builder()
            .name("workqueue_depth")
            .help("Current depth of workqueue")
            .labelNames("name")
            .register(registry);
    adds =
        Counter.builder()
            .name("workqueue_adds_total")
            .help("Total number of adds handled by workqueue")
            .labelNames("name")
            .register(registry);
    queueLatency =
        histogram(
            "workqueue_queue_duration_seconds",
            "How long in seconds an item stays in workqueue before being requested.",
            registry);
    workDuration =
        histogram(
            "workqueue_work_duration_seconds",
            "How long in seconds processing an item from workqueue takes.",
            registry);
    retries =
        Counter.builder()
            .name("workqueue_retries_total")
            .help("Total number of retries handled by workqueue")
            .labelNames("name")
            .register(registry);
    GaugeWithCallback.builder()
        .name("workqueue_unfinished_work_seconds")
        .help(
            "How many seconds of work has been done that is in progress and hasn't been observed"
                + " by work_duration. Large values indicate stuck threads. One can deduce the"
                + " number of stuck threads by observing the rate at which this increases.")
        .labelNames("name")
        .callback(cb -> queues.forEach(q -> cb.call(q.unfinishedSeconds(), q.name())))
        .register(registry);
    GaugeWithCallback.builder()
        .name("workqueue_longest_running_processor_seconds")
        .help("How many seconds has the longest running processor for workqueue been running.")
        .labelNames("name")
        .callback(cb -> queues.forEach(q -> cb.call(q.longestSeconds(), q.name())))
        .register(registry);
  }

  /** Registers the workqueue metrics on {@code registry} (once per registry). */
  public static WorkQueueMetrics create(PrometheusRegistry registry) {
    return new WorkQueueMetrics(registry);
  }

  /** The metrics of one queue; null metrics give a no-op. */
  static <T> QueueMetrics<T> forQueue(WorkQueueMetrics metrics, String name, Clock clock) {
    if (metrics == null || name == null || name.isEmpty()) {
      // Upstream: unnamed queues have no metrics.
      return QueueMetrics.noop();
    }
    QueueMetrics<T> q = QueueMetrics.of(metrics, name, clock);
    metrics.queues.add(q);
    return q;
  }

  private static Histogram histogram(String name, String help, PrometheusRegistry registry) {
    return Histogram.builder()
        .name(name)
        .help(help)
        .labelNames("name")
        .classicOnly()
        .classicUpperBounds(BUCKETS)
        .register(registry);
  }
}
