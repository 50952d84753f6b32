package io.jdra.exampledriver;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;

/**
 * The driver's metrics, upstream dra-example-driver's {@code pkg/metrics} (namespace {@code
 * dra_example}, subsystem {@code driver}, stability BETA): per claim, prepare and unprepare
 * counters and latency histograms by {@code result} ({@code success} or {@code error}), and a
 * counter of fatal background errors. Created per driver instance on an injected registry, so many
 * drivers in one JVM (jdra up) each count their own. The counters start with both results at 0, as
 * upstream's do, so they are visible before the first call.
 */
public final class DriverMetrics {
  /** component-base's DefBuckets (Prometheus' default buckets), in seconds. */
  static final double[] DEF_BUCKETS = {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10};

  private final Counter prepares;
  private final Histogram prepareDuration;
  private final Counter unprepares;
  private final Histogram unprepareDuration;
  private final Counter fatalErrors;

  private DriverMetrics(PrometheusRegistry registry) {
    prepares =
        Counter.builder()
            .name("dra_example_driver_prepare_claims_total")
            .help("[BETA] Total number of resource claim prepare operations handled by the driver.")
            .labelNames("result")
            .register(registry);
    prepareDuration =
        Histogram.builder()
            .name("dra_example_driver_prepare_claim_duration_seconds")
            .help(
                "[BETA] Latency in seconds of resource claim prepare operations handled by the"
                    + " driver.")
            .labelNames("result")
            .classicUpperBounds(DEF_BUCKETS)
            .classicOnly()
            .register(registry);
    unprepares =
        Counter.builder()
            .name("dra_example_driver_unprepare_claims_total")
            .help(
                "[BETA] Total number of resource claim unprepare operations handled by the driver.")
            .labelNames("result")
            .register(registry);
    unprepareDuration =
        Histogram.builder()
            .name("dra_example_driver_unprepare_claim_duration_seconds")
            .help(
                "[BETA] Latency in seconds of resource claim unprepare operations handled by the"
                    + " driver.")
            .labelNames("result")
            .classicUpperBounds(DEF_BUCKETS)
            .classicOnly()
            .register(registry);
    fatalErrors =
        Counter.builder()
            .name("dra_example_driver_fatal_background_errors_total")
            .help("[BETA] Total number of fatal background errors reported by the driver.")
            .register(registry);
    for (String result : new String[] {"success", "error"}) {
      prepares.labelValues(result);
      unprepares.labelValues(result);
    }
  }

  /** Registers the metrics in {@code registry}. */
  public static DriverMetrics create(PrometheusRegistry registry) {
    return new DriverMetrics(registry);
  }

  void observePrepare(boolean ok, Duration d) {
    String result = ok ? "success" : "error";
    prepares.labelValues(result).inc();
    prepareDuration.labelValues(result).observe(d.toNanos() / 1e9);
  }

  void observeUnprepare(boolean ok, Duration d) {
    String result = ok ? "success" : "error";
    unprepares.labelValues(result).inc();
    unprepareDuration.labelValues(result).observe(d.toNanos() / 1e9);
  }

  void fatalBackgroundError() {
    fatalErrors.inc();
  }
}
