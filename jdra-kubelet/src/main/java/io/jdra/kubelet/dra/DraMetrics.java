package io.jdra.kubelet.dra;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The kubelet's DRA metrics with upstream's names and labels, registered on an injected registry so
 * that several simulated nodes in one process do not share them.
 */
public final class DraMetrics {
  private static final double[] BUCKETS = {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10};

  private final Histogram operations;
  private final Histogram grpc;

  private DraMetrics(Histogram operations, Histogram grpc) {
    this.operations = operations;
    this.grpc = grpc;
  }

  /**
   * Metrics on {@code registry}; {@code claimsInUse} is read at scrape time (driver name -> number
   * of claims prepared with it).
   */
  public static DraMetrics create(
      PrometheusRegistry registry, Supplier<Map<String, Integer>> claimsInUse) {
    Histogram operations =
        Histogram.builder()
            .name("dra_operations_duration_seconds")
            .help(
                "Latency histogram in seconds for the duration of handling all ResourceClaims referenced by a pod when the pod starts or stops.")
            .labelNames("operation_name", "is_error")
            .classicOnly()
            .classicUpperBounds(BUCKETS)
            .register(registry);
    Histogram grpc =
        Histogram.builder()
            .name("dra_grpc_operations_duration_seconds")
            .help("Duration in seconds of the DRA gRPC operations")
            .labelNames("driver_name", "method_name", "grpc_status_code")
            .classicOnly()
            .classicUpperBounds(BUCKETS)
            .register(registry);
    GaugeWithCallback.builder()
        .name("dra_resource_claims_in_use")
        .help(
            "The number of ResourceClaims that are currently in use on the node, by driver name (driver_name label value) and across all drivers (special value <any> for driver_name). Note that the sum of all by-driver counts is not the total number of in-use ResourceClaims because the same ResourceClaim might use devices from different drivers.")
        .labelNames("driver_name")
        .callback(cb -> {
          Map<String, Integer> counts = claimsInUse.get();
          counts.forEach((driver, n) -> cb.call(n, driver));
        })
        .register(registry);
    return new DraMetrics(operations, grpc);
  }

  /** Metrics that go nowhere, for tests that do not look at them. */
  public static DraMetrics discard() {
    return create(new PrometheusRegistry(), Map::of);
  }

  public void observeOperation(String operation, boolean isError, Duration took) {
    operations.labelValues(operation, Boolean.toString(isError)).observe(seconds(took));
  }

  public void observeGrpc(String driver, String method, String statusCode, Duration took) {
    grpc.labelValues(driver, method, statusCode).observe(seconds(took));
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }
}
