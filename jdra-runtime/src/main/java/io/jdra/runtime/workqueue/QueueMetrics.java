package io.jdra.runtime.workqueue;

import io.jdra.runtime.clock.Clock;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.datapoints.GaugeDataPoint;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * One queue's view of {@link WorkQueueMetrics}, as upstream's {@code defaultQueueMetrics}: called
 * by the queue under its lock, and read by scrapes; so it has its own small lock.
 */
class QueueMetrics<T> {
  private static final QueueMetrics<Object> NOOP = new QueueMetrics<>();

  private final String name;
  private final Clock clock;
  private final GaugeDataPoint depth;
  private final CounterDataPoint adds;
  private final DistributionDataPoint latency;
  private final DistributionDataPoint work;
  private final CounterDataPoint retries;
  private final Map<T, Instant> addTimes = new HashMap<>();
  private final Map<T, Instant> processingStart = new HashMap<>();

  private QueueMetrics() {
    name = "";
    clock = null;
    depth = null;
    adds = null;
    latency = null;
    work = null;
    retries = null;
  }

  private QueueMetrics(WorkQueueMetrics m, String name, Clock clock) {
    this.name = name;
    this.clock = clock;
    depth = m.depth.labelValues(name);
    adds = m.adds.labelValues(name);
    latency = m.queueLatency.labelValues(name);
    work = m.workDuration.labelValues(name);
    retries = m.retries.labelValues(name);
  }

  @SuppressWarnings("unchecked")
  static <T> QueueMetrics<T> noop() {
    return (QueueMetrics<T>) NOOP;
  }

  static <T> QueueMetrics<T> of(WorkQueueMetrics m, String name, Clock clock) {
    return new QueueMetrics<>(m, name, clock);
  }

  String name() {
    return name;
  }

  boolean enabled() {
    return clock != null;
  }

  void add(T item) {
    if (!enabled()) {
      return;
    }
    adds.inc();
    depth.inc();
    synchronized (this) {
      addTimes.putIfAbsent(item, clock.now());
    }
  }

  void get(T item) {
    if (!enabled()) {
      return;
    }
    depth.dec();
    Instant now = clock.now();
    Instant added;
    synchronized (this) {
      processingStart.put(item, now);
      added = addTimes.remove(item);
    }
    if (added != null) {
      latency.observe(seconds(Duration.between(added, now)));
    }
  }

  void done(T item) {
    if (!enabled()) {
      return;
    }
    Instant started;
    synchronized (this) {
      started = processingStart.remove(item);
    }
    if (started != null) {
      work.observe(seconds(clock.since(started)));
    }
  }

  void retry() {
    if (enabled()) {
      retries.inc();
    }
  }

  synchronized double unfinishedSeconds() {
    if (!enabled()) {
      return 0;
    }
    Instant now = clock.now();
    double total = 0;
    for (Instant start : processingStart.values()) {
      total += seconds(Duration.between(start, now));
    }
    return total;
  }

  synchronized double longestSeconds() {
    if (!enabled()) {
      return 0;
    }
    Instant now = clock.now();
    double longest = 0;
    for (Instant start : processingStart.values()) {
      longest = Math.max(longest, seconds(Duration.between(start, now)));
    }
    return longest;
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }
}
