package io.jdra.controllers.resourceclaim;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.jdra.api.resourceclaim.ResourceClaims;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a claim generated from a ResourceClaimTemplate looks, and how an existing one is recognised.
 * Pure functions; the inputs (cached objects) are never modified.
 */
final class GeneratedClaims {
  /**
   * The annotation the scheduler puts on the claim it generates for a pod's DRA-backed extended
   * resources (value {@code "true"}).
   */
  static final String EXTENDED_RESOURCE_CLAIM_ANNOTATION =
      io.jdra.api.resourceclaim.ResourceClaims.EXTENDED_RESOURCE_CLAIM_ANNOTATION;

  private GeneratedClaims() {}

  /**
   * The claim to create for a pod's {@code spec.resourceClaims} entry: {@code generateName} as
   * upstream ({@link ResourceClaims#generateName}), the pod as controlling owner that blocks its
   * deletion, the template's labels and annotations plus {@code
   * resource.kubernetes.io/pod-claim-name}, and the template's spec.
   */
  static ResourceClaim newClaim(
      Pod pod, PodResourceClaim podClaim, ResourceClaimTemplate template) {
    ObjectMeta templateMeta =
        template.getSpec().getMetadata() == null
            ? new ObjectMeta()
            : template.getSpec().getMetadata();
    Map<String, String> annotations = new LinkedHashMap<>();
    if (templateMeta.getAnnotations() != null) {
      annotations.putAll(templateMeta.getAnnotations());
    }
    annotations.put(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, podClaim.getName());
    Map<String, String> labels =
        templateMeta.getLabels() == null ? null : new LinkedHashMap<>(templateMeta.getLabels());
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withGenerateName(
            ResourceClaims.generateName(pod.getMetadata().getName(), podClaim.getName()))
        .withNamespace(pod.getMetadata().getNamespace())
        .withOwnerReferences(
            new OwnerReferenceBuilder()
                .withApiVersion("v1")
                .withKind("Pod")
                .withName(pod.getMetadata().getName())
                .withUid(pod.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build())
        .withAnnotations(annotations)
        .withLabels(labels)
        .endMetadata()
        .withSpec(template.getSpec().getSpec())
        .build();
  }

  /**
   * Upstream findPodResourceClaim over the claims the pod controls: the one annotated for this pod
   * claim, or an unannotated one with the deterministic name {@code <pod>-<claim>} that Kubernetes
   * 1.27 and older generated. The first match wins, as upstream.
   */
  static ResourceClaim findPodResourceClaim(
      Pod pod, PodResourceClaim podClaim, List<ResourceClaim> ownedByPod) {
    String legacyName = pod.getMetadata().getName() + "-" + podClaim.getName();
    for (ResourceClaim claim : ownedByPod) {
      Map<String, String> annotations = claim.getMetadata().getAnnotations();
      String annotated =
          annotations == null ? null : annotations.get(ResourceClaims.POD_CLAIM_NAME_ANNOTATION);
      if (annotated != null && !annotated.equals(podClaim.getName())) {
        continue;
      }
      if (annotated == null && !legacyName.equals(claim.getMetadata().getName())) {
        continue;
      }
      return claim;
    }
    return null;
  }

  /** Upstream needsAdminAccess: some request of the template asks for admin access. */
  static boolean needsAdminAccess(ResourceClaimTemplate template) {
    return hasAdminAccess(template.getSpec().getSpec());
  }

  /** Whether a claim spec has a request with {@code exactly.adminAccess: true}. */
  static boolean hasAdminAccess(ResourceClaimSpec spec) {
    for (DeviceRequest request : requests(spec)) {
      if (request.getExactly() != null
          && Boolean.TRUE.equals(request.getExactly().getAdminAccess())) {
        return true;
      }
    }
    return false;
  }

  /** Upstream hasPrioritizedList: some request of the template uses {@code firstAvailable}. */
  static boolean hasPrioritizedList(ResourceClaimTemplate template) {
    for (DeviceRequest request : requests(template.getSpec().getSpec())) {
      if (request.getFirstAvailable() != null && !request.getFirstAvailable().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private static List<DeviceRequest> requests(ResourceClaimSpec spec) {
    if (spec == null || spec.getDevices() == null || spec.getDevices().getRequests() == null) {
      return List.of();
    }
    return spec.getDevices().getRequests();
  }

  /**
   * The {@code source} label of {@code resourceclaim_controller_resource_claims}: {@code
   * resource_claim_template}, {@code extended_resource}, or empty for a claim a user created.
   */
  static String source(ResourceClaim claim) {
    Map<String, String> annotations = claim.getMetadata().getAnnotations();
    if (annotations == null) {
      return "";
    }
    if (annotations.containsKey(ResourceClaims.POD_CLAIM_NAME_ANNOTATION)) {
      return "resource_claim_template";
    }
    if ("true".equals(annotations.get(EXTENDED_RESOURCE_CLAIM_ANNOTATION))) {
      return "extended_resource";
    }
    return "";
  }
}
