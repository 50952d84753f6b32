package io.jdra.controllers.devicetainteviction;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The controller's own metrics, named as upstream's {@code devicetainteviction/metrics} (subsystem
 * {@code device_taint_eviction_controller}), created on an injected registry so that several
 * controller instances (tests, several clusters) do not collide. Thread-safe.
 */
public final class DeviceTaintEvictionMetrics {
  /** Upstream's buckets: 5 ms to 4 min. */
  static final double[] DELETION_BUCKETS = {
    0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 30, 60, 120, 180, 240
  };

  final Counter podDeletionsTotal;
  final Histogram podDeletionDuration;

  private DeviceTaintEvictionMetrics(Counter total, Histogram duration) {
    this.podDeletionsTotal = total;
    this.podDeletionDuration = duration;
  }

  /** Creates and registers the metrics. */
  public static DeviceTaintEvictionMetrics create(PrometheusRegistry registry) {
    Counter total =
        Counter.builder()
            .name("device_taint_eviction_controller_pod_deletions_total")
            .help("Total number of Pods deleted by DeviceTaintEvictionController since its start.")
            .register(registry);
    Histogram duration =
        Histogram.builder()
            .name("device_taint_eviction_controller_pod_deletion_duration_seconds")
            .help(
                "Latency, in seconds, between the time when a device taint effect has been"
                    + " activated and a Pod's deletion via DeviceTaintEvictionController.")
            .classicUpperBounds(DELETION_BUCKETS)
            .classicOnly()
            .register(registry);
    return new DeviceTaintEvictionMetrics(total, duration);
  }
}
