package io.jdra.controllers.resourceclaim;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.api.resourceclaim.PodClaimName;
import io.jdra.api.resourceclaim.ResourceClaims;
import java.util.ArrayList;
import java.util.List;

/**
 * The informer indexes the controller adds, with upstream's names: pods by the claims they use,
 * claims by the pod that owns them. Pure functions of one object; safe on any informer thread.
 */
final class Indexes {
  /** Upstream podResourceClaimIndex: pods by {@code <namespace>/<claim name>} of their claims. */
  static final String POD_RESOURCE_CLAIM_INDEX = "pod-resource-claim-index";

  /** Upstream claimPodOwnerIndex: claims by the UID of the pod that controls them. */
  static final String CLAIM_POD_OWNER_INDEX = "claim-pod-owner-index";

  private Indexes() {}

  /**
   * The claims a pod references by name or through its status (templates, and with {@code
   * extendedResource} the generated extended-resource claim), as {@code namespace/name}.
   */
  static List<String> podResourceClaims(Pod pod, boolean extendedResource) {
    List<String> keys = new ArrayList<>();
    String ns = pod.getMetadata().getNamespace();
    for (PodResourceClaim podClaim : Pods.resourceClaims(pod)) {
      if (ResourceClaims.name(pod, podClaim) instanceof PodClaimName.Named named) {
        keys.add(ns + "/" + named.name());
      }
    }
    String extended = extendedResource ? Pods.extendedResourceClaimName(pod) : null;
    if (extended != null) {
      keys.add(ns + "/" + extended);
    }
    return keys;
  }

  /** The UID of the pod controlling the claim (upstream owner check: v1 Pod, controller). */
  static List<String> claimPodOwner(ResourceClaim claim) {
    OwnerReference owner = ResourceClaims.owningPod(claim);
    return owner == null ? List.of() : List.of(owner.getUid());
  }
}
