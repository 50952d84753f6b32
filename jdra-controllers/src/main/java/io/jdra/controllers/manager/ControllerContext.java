package io.jdra.controllers.manager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.features.FeatureGates;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * What a controller factory gets (upstream's ControllerContext): the client, the shared informer
 * factory, the metrics registry and work-queue metrics of this manager, the feature gates and the
 * options. {@code ctx} carries the controller's named logger and the manager's cancellation.
 */
public record ControllerContext(
    Ctx ctx,
    KubernetesClient client,
    InformerFactory informers,
    PrometheusRegistry registry,
    WorkQueueMetrics queueMetrics,
    FeatureGates featureGates,
    ControllerManagerOptions options) {}
