package io.jdra.scheduler;

import io.jdra.api.features.FeatureGates;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResourcesArgs;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * How a scheduler runs. Validated at construction.
 *
 * @param schedulerName pods whose {@code spec.schedulerName} equals this are scheduled (upstream
 *     default {@code default-scheduler}); it is also the profile name in metrics
 * @param featureGates DRA feature gates (1.36 defaults from {@link FeatureGates#defaults()})
 * @param dynamicResources DynamicResourcesArgs (filterTimeout 10 s, bindingTimeout 600 s)
 * @param percentageOfNodesToScore 0 for upstream's adaptive share (50% minus 1% per 125 nodes, at
 *     least 5%, at least 100 nodes), else 1..100
 * @param parallelism workers for Filter (upstream default 16)
 * @param registry where metrics are registered (a fresh registry per scheduler in tests)
 */
public record SchedulerOptions(
    String schedulerName,
    FeatureGates featureGates,
    DynamicResourcesArgs dynamicResources,
    int percentageOfNodesToScore,
    int parallelism,
    PrometheusRegistry registry) {

  public static final String DEFAULT_SCHEDULER_NAME = "default-scheduler";

  /** Upstream {@code DefaultParallelism}. */
  public static final int DEFAULT_PARALLELISM = 16;

  public SchedulerOptions {
    if (schedulerName == null || schedulerName.isEmpty()) {
      throw new IllegalArgumentException("scheduler name is empty");
    }
    if (percentageOfNodesToScore < 0 || percentageOfNodesToScore > 100) {
      throw new IllegalArgumentException(
          "percentageOfNodesToScore must be between 0 and 100, got " + percentageOfNodesToScore);
    }
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be positive, got " + parallelism);
    }
    if (featureGates == null) {
      featureGates = FeatureGates.defaults();
    }
    if (dynamicResources == null) {
      dynamicResources = DynamicResourcesArgs.defaults();
    }
    if (registry == null) {
      registry = new PrometheusRegistry();
    }
  }

  /** Upstream defaults, a fresh metrics registry. */
  public static SchedulerOptions defaults() {
    return new SchedulerOptions(
        DEFAULT_SCHEDULER_NAME,
        FeatureGates.defaults(),
        DynamicResourcesArgs.defaults(),
        0,
        DEFAULT_PARALLELISM,
        new PrometheusRegistry());
  }

  public SchedulerOptions withSchedulerName(String n) {
    return new SchedulerOptions(
        n, featureGates, dynamicResources, percentageOfNodesToScore, parallelism, registry);
  }

  public SchedulerOptions withFeatureGates(FeatureGates g) {
    return new SchedulerOptions(
        schedulerName, g, dynamicResources, percentageOfNodesToScore, parallelism, registry);
  }

  public SchedulerOptions withDynamicResources(DynamicResourcesArgs a) {
    return new SchedulerOptions(
        schedulerName, featureGates, a, percentageOfNodesToScore, parallelism, registry);
  }

  public SchedulerOptions withPercentageOfNodesToScore(int p) {
    return new SchedulerOptions(
        schedulerName, featureGates, dynamicResources, p, parallelism, registry);
  }

  public SchedulerOptions withParallelism(int p) {
    return new SchedulerOptions(
        schedulerName, featureGates, dynamicResources, percentageOfNodesToScore, p, registry);
  }

  public SchedulerOptions withRegistry(PrometheusRegistry r) {
    return new SchedulerOptions(
        schedulerName, featureGates, dynamicResources, percentageOfNodesToScore, parallelism, r);
  }
}
