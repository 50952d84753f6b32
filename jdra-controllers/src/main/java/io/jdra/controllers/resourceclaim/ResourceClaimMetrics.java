package io.jdra.controllers.resourceclaim;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * The controller's metrics, upstream's {@code pkg/controller/resourceclaim/metrics}: {@code
 * resourceclaim_controller_creates_total{status, admin_access}} counts create calls, and {@code
 * resourceclaim_controller_resource_claims{allocated, admin_access, source}} counts the claims in
 * the informer cache when scraped (upstream's custom collector). Created per controller instance on
 * an injected registry, so parallel tests do not share counters.
 */
public final class ResourceClaimMetrics {
  private final Counter creates;

  /**
   * The four series of the create counter (status x admin_access), each looked up on its first use
   * only: a label lookup per create (a hash of the label list) showed in the workers' profile. A
   * series appears in the output once counted, as upstream's CounterVec.
   */
  private final AtomicReferenceArray<CounterDataPoint> createSeries = new AtomicReferenceArray<>(4);

  private ResourceClaimMetrics(Counter creates) {
    this.creates = creates;
  }

  /**
   * Registers both metrics. {@code claims} is called on every scrape and must be cheap and
   * thread-safe (an informer cache listing).
   */
  public static ResourceClaimMetrics create(
      PrometheusRegistry registry, Supplier<? extends Collection<ResourceClaim>> claims) {
    Counter creates =
        Counter.builder()
            .name("resourceclaim_controller_creates_total")
            .help(
                "[ALPHA] Number of ResourceClaims creation requests, categorized by creation"
                    + " status and admin access")
            .labelNames("status", "admin_access")
            .register(registry);
    GaugeWithCallback.builder()
        .name("resourceclaim_controller_resource_claims")
        .help(
            "[BETA] Number of ResourceClaims, categorized by allocation status, admin access, and"
                + " source. Source can be 'resource_claim_template' (created from a template),"
                + " 'extended_resource' (extended resources), or empty (manually created by a"
                + " user).")
        .labelNames("allocated", "admin_access", "source")
        .callback(cb -> count(claims.get()).forEach((labels, n) -> cb.call(n, labels.toArray())))
        .register(registry);
    return new ResourceClaimMetrics(creates);
  }

  /** One create call for a claim, {@code success} or {@code failure}. */
  void recordCreate(boolean success, boolean adminAccess) {
    int i = (success ? 0 : 2) + (adminAccess ? 1 : 0);
    CounterDataPoint series = createSeries.get(i);
    if (series == null) {
      // Two workers may both look it up: the counter gives both the same series.
      series = creates.labelValues(success ? "success" : "failure", Boolean.toString(adminAccess));
      createSeries.set(i, series);
    }
    series.inc();
  }

  /** The current value of the create counter for one label pair (for tests). */
  double creates(String status, boolean adminAccess) {
    return creates.labelValues(status, Boolean.toString(adminAccess)).get();
  }

  static Map<Labels, Double> count(Collection<ResourceClaim> claims) {
    Map<Labels, Double> counts = new HashMap<>();
    for (ResourceClaim claim : claims) {
      boolean allocated = claim.getStatus() != null && claim.getStatus().getAllocation() != null;
      Labels labels =
          new Labels(
              Boolean.toString(allocated),
              Boolean.toString(GeneratedClaims.hasAdminAccess(claim.getSpec())),
              GeneratedClaims.source(claim));
      counts.merge(labels, 1.0, Double::sum);
    }
    return counts;
  }

  record Labels(String allocated, String adminAccess, String source) {
    String[] toArray() {
      return List.of(allocated, adminAccess, source).toArray(String[]::new);
    }
  }
}
