package io.jdra.controllers.resourceclaim;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.cache.MutationCache;

/**
 * What the sync functions read and write through: the API client, the informer listers (shared,
 * immutable objects), the claim mutation cache, events, metrics, the deleted-pod cache and the
 * feature switches. Immutable; every part is thread-safe.
 */
record Deps(
    KubernetesClient client,
    Lister<Pod> pods,
    Lister<ResourceClaim> claims,
    MutationCache<ResourceClaim> claimCache,
    Lister<ResourceClaimTemplate> templates,
    Events events,
    ResourceClaimMetrics metrics,
    UidCache deletedPods,
    Features features) {

  /**
   * Where the controller's events go: a Warning about a pod ({@code regarding}) with an upstream
   * reason and a note. Must not block.
   */
  @FunctionalInterface
  interface Events {
    void warning(Pod regarding, String reason, String action, String note);
  }

  /** The feature gates the controller reads, resolved once at construction. */
  record Features(boolean adminAccess, boolean prioritizedList, boolean extendedResource) {}
}
