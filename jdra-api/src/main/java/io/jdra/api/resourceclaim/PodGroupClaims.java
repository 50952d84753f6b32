package io.jdra.api.resourceclaim;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Claims of a {@code scheduling.k8s.io/v1alpha2} PodGroup (DRAWorkloadResourceClaims, KEP 5729): a
 * pod's {@code spec.resourceClaims} entry equal in all fields (name, resourceClaimName,
 * resourceClaimTemplateName) to an entry of its PodGroup's {@code spec.resourceClaims} uses the
 * PodGroup's claim, which is generated once per PodGroup (owned by it, annotated {@value
 * #CLAIM_NAME_ANNOTATION}) and reserved for the PodGroup as a whole. fabric8 8.0 has no v1alpha2
 * model, so PodGroups are generic resources here. Pure functions.
 */
public final class PodGroupClaims {
  public static final String GROUP = "scheduling.k8s.io";
  public static final String API_VERSION = GROUP + "/v1alpha2";
  public static final String KIND = "PodGroup";
  public static final String RESOURCE = "podgroups";

  /** Upstream's annotation: the PodGroup's name for the claim it generated. */
  public static final String CLAIM_NAME_ANNOTATION = "resource.kubernetes.io/podgroup-claim-name";

  private PodGroupClaims() {}

  /** {@code pod.spec.schedulingGroup.podGroupName}, or null. */
  public static String podGroupName(Pod pod) {
    var g = pod.getSpec() == null ? null : pod.getSpec().getSchedulingGroup();
    return g == null ? null : g.getPodGroupName();
  }

  /** The PodGroup's {@code spec.resourceClaims}, empty when unset. */
  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> claims(GenericKubernetesResource podGroup) {
    Object spec = podGroup.getAdditionalProperties().get("spec");
    if (spec instanceof Map<?, ?> m && m.get("resourceClaims") instanceof List<?> l) {
      return (List<Map<String, Object>>) l;
    }
    return List.of();
  }

  /** Whether the PodGroup lists the pod's claim with exactly the same fields. */
  public static boolean matches(GenericKubernetesResource podGroup, PodResourceClaim podClaim) {
    for (Map<String, Object> c : claims(podGroup)) {
      if (Objects.equals(c.get("name"), podClaim.getName())
          && Objects.equals(c.get("resourceClaimName"), podClaim.getResourceClaimName())
          && Objects.equals(
              c.get("resourceClaimTemplateName"), podClaim.getResourceClaimTemplateName())) {
        return true;
      }
    }
    return false;
  }

  /** The {@code status.reservedFor} entry for a PodGroup. */
  public static ResourceClaimConsumerReference reference(String name, String uid) {
    return new ResourceClaimConsumerReferenceBuilder()
        .withApiGroup(GROUP)
        .withResource(RESOURCE)
        .withName(name)
        .withUid(uid)
        .build();
  }

  public static boolean isPodGroupReference(ResourceClaimConsumerReference ref) {
    return GROUP.equals(ref.getApiGroup()) && RESOURCE.equals(ref.getResource());
  }

  /** Whether the claim is reserved for the pod's PodGroup (by name: same namespace). */
  public static boolean isReservedForPodGroup(Pod pod, ResourceClaim claim) {
    String group = podGroupName(pod);
    if (group == null) {
      return false;
    }
    for (ResourceClaimConsumerReference ref : ResourceClaims.reservedFor(claim)) {
      if (isPodGroupReference(ref) && group.equals(ref.getName())) {
        return true;
      }
    }
    return false;
  }

  /** The claim's controlling PodGroup, or null (the claim was not generated for a PodGroup). */
  public static OwnerReference owningPodGroup(ResourceClaim claim) {
    List<OwnerReference> refs = claim.getMetadata().getOwnerReferences();
    if (refs == null) {
      return null;
    }
    for (OwnerReference ref : refs) {
      if (Boolean.TRUE.equals(ref.getController())) {
        return API_VERSION.equals(ref.getApiVersion()) && KIND.equals(ref.getKind()) ? ref : null;
      }
    }
    return null;
  }

  /** Whether the claim was generated for the pod's PodGroup. */
  public static boolean isForPodGroupOf(Pod pod, ResourceClaim claim) {
    OwnerReference owner = owningPodGroup(claim);
    return owner != null
        && Objects.equals(owner.getName(), podGroupName(pod))
        && Objects.equals(claim.getMetadata().getNamespace(), pod.getMetadata().getNamespace());
  }
}
