package io.jdra.controllers.resourceclaim;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.resourceclaim.PodGroupClaims;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.cache.MutationCache;
import java.util.Optional;

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
    Features features,
    PodGroups podGroups) {

  /**
   * Where the controller's events go: a Warning about a pod ({@code regarding}) with an upstream
   * reason and a note. Must not block.
   */
  @FunctionalInterface
  interface Events {
    void warning(Pod regarding, String reason, String action, String note);
  }

  /**
   * The feature gates the controller reads, resolved once at construction; {@code workloadClaims}
   * is DRAWorkloadResourceClaims.
   */
  record Features(
      boolean adminAccess,
      boolean prioritizedList,
      boolean extendedResource,
      boolean workloadClaims) {
    Features(boolean adminAccess, boolean prioritizedList, boolean extendedResource) {
      this(adminAccess, prioritizedList, extendedResource, false);
    }
  }

  /**
   * Reads a PodGroup ({@code scheduling.k8s.io/v1alpha2}) from the API server: fresh, because its
   * status is where the claim generated for it is recorded (the compare-and-swap that keeps two
   * workers from generating two claims for one PodGroup).
   */
  @FunctionalInterface
  interface PodGroups {
    Optional<GenericKubernetesResource> get(String namespace, String name);

    /** PodGroups read with a GET through this client. */
    static PodGroups fromApi(KubernetesClient client) {
      return (ns, name) ->
          Optional.ofNullable(
              client
                  .genericKubernetesResources(PodGroupClaims.API_VERSION, PodGroupClaims.KIND)
                  .inNamespace(ns)
                  .withName(name)
                  .get());
    }
  }
}
