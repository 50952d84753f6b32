package io.jdra.controllers.resourceclaim;

import static io.jdra.runtime.logging.Klog.kobj;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.api.resourceclaim.PodGroupClaims;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.Ctx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The claim a PodGroup's ResourceClaimTemplate entry generates once for the whole group
 * (DRAWorkloadResourceClaims, KEP 5729): named {@code <podgroup>-<claim>-xxxxx}, controlled by the
 * PodGroup (the garbage collector deletes it with the group), annotated {@value
 * PodGroupClaims#CLAIM_NAME_ANNOTATION}, and recorded in the PodGroup's {@code
 * status.resourceClaimStatuses}. That status entry is written with the PodGroup's resourceVersion
 * as precondition: of two workers that each created a claim for the same group, one loses with 409
 * Conflict, deletes its claim and retries with the winner's. Nothing is locked.
 */
final class PodGroupClaim {
  private final Deps deps;

  PodGroupClaim(Deps deps) {
    this.deps = deps;
  }

  /**
   * The PodGroup whose claim the pod's entry refers to, or empty when the entry is the pod's own
   * (no group, the gate off, or the group does not list it).
   *
   * @throws SyncException when the pod names a PodGroup that does not exist (yet)
   */
  Optional<GenericKubernetesResource> groupOf(Pod pod, PodResourceClaim podClaim) {
    String group = PodGroupClaims.podGroupName(pod);
    if (!deps.features().workloadClaims() || group == null) {
      return Optional.empty();
    }
    String ns = pod.getMetadata().getNamespace();
    GenericKubernetesResource pg =
        deps.podGroups()
            .get(ns, group)
            .orElseThrow(() -> new SyncException("PodGroup " + ns + "/" + group + " not found"));
    return PodGroupClaims.matches(pg, podClaim) ? Optional.of(pg) : Optional.empty();
  }

  /** The name of the group's claim for the entry, generating it first if needed. */
  String nameFor(
      Ctx ctx, Pod pod, GenericKubernetesResource pg, PodResourceClaim podClaim, String template) {
    String recorded = recorded(pg, podClaim.getName());
    String ns = pod.getMetadata().getNamespace();
    // The mutation cache also knows a claim another worker created a moment ago.
    if (recorded != null && deps.claimCache().get(ns, recorded).isPresent()) {
      return recorded;
    }
    ResourceClaim claim = create(ctx, pod, pg, podClaim, template);
    try {
      record(pg, podClaim.getName(), claim.getMetadata().getName());
    } catch (KubernetesClientException e) {
      deleteQuietly(claim);
      if (e.getCode() == 409) {
        throw new SyncException(
            "PodGroup " + ns + "/" + pg.getMetadata().getName() + " changed, retrying");
      }
      throw SyncException.wrap("update PodGroup status", e);
    }
    return claim.getMetadata().getName();
  }

  private ResourceClaim create(
      Ctx ctx, Pod pod, GenericKubernetesResource pg, PodResourceClaim podClaim, String template) {
    String ns = pod.getMetadata().getNamespace();
    var tmpl =
        deps.templates()
            .get(ns, template)
            .orElseThrow(() ->
                new SyncException(
                    "resource claim template \""
                        + template
                        + "\": resourceclaimtemplate.resource.k8s.io \""
                        + template
                        + "\" not found"));
    ResourceClaim forPod = GeneratedClaims.newClaim(pod, podClaim, tmpl);
    Map<String, String> annotations = new LinkedHashMap<>(forPod.getMetadata().getAnnotations());
    annotations.remove(ResourceClaims.POD_CLAIM_NAME_ANNOTATION);
    annotations.put(PodGroupClaims.CLAIM_NAME_ANNOTATION, podClaim.getName());
    ResourceClaim claim =
        new ResourceClaimBuilder(forPod)
            .editMetadata()
            .withGenerateName(
                ResourceClaims.generateName(pg.getMetadata().getName(), podClaim.getName()))
            .withAnnotations(annotations)
            .withOwnerReferences(
                new OwnerReferenceBuilder()
                    .withApiVersion(PodGroupClaims.API_VERSION)
                    .withKind(PodGroupClaims.KIND)
                    .withName(pg.getMetadata().getName())
                    .withUid(pg.getMetadata().getUid())
                    .withController(true)
                    .withBlockOwnerDeletion(true)
                    .build())
            .endMetadata()
            .build();
    ResourceClaim created;
    try {
      created =
          deps.client().resources(ResourceClaim.class).inNamespace(ns).resource(claim).create();
    } catch (KubernetesClientException e) {
      deps.metrics().recordCreate(false, GeneratedClaims.needsAdminAccess(tmpl));
      throw SyncException.wrap("create ResourceClaim " + claim.getMetadata().getGenerateName(), e);
    }
    deps.metrics().recordCreate(true, GeneratedClaims.needsAdminAccess(tmpl));
    deps.claimCache().mutation(created);
    ctx.logger()
        .v(4)
        .info(
            "Created ResourceClaim for PodGroup",
            "claim",
            kobj(created),
            "podGroup",
            pg.getMetadata().getName());
    return created;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> statuses(GenericKubernetesResource pg) {
    Object status = pg.getAdditionalProperties().get("status");
    if (status instanceof Map<?, ?> m && m.get("resourceClaimStatuses") instanceof List<?> l) {
      return (List<Map<String, Object>>) l;
    }
    return List.of();
  }

  private static String recorded(GenericKubernetesResource pg, String claimName) {
    for (Map<String, Object> s : statuses(pg)) {
      if (claimName.equals(s.get("name")) && s.get("resourceClaimName") != null) {
        return s.get("resourceClaimName").toString();
      }
    }
    return null;
  }

  /** Updates the status with the read resourceVersion: a concurrent writer makes this 409. */
  @SuppressWarnings("unchecked")
  private void record(GenericKubernetesResource pg, String claimName, String resourceClaimName) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (Map<String, Object> s : statuses(pg)) {
      if (!claimName.equals(s.get("name"))) {
        list.add(s);
      }
    }
    list.add(Map.of("name", claimName, "resourceClaimName", resourceClaimName));
    Map<String, Object> status =
        pg.getAdditionalProperties().get("status") instanceof Map<?, ?> m
            ? new LinkedHashMap<>((Map<String, Object>) m)
            : new LinkedHashMap<>();
    status.put("resourceClaimStatuses", list);
    GenericKubernetesResource updated = new GenericKubernetesResource();
    updated.setApiVersion(pg.getApiVersion());
    updated.setKind(pg.getKind());
    updated.setMetadata(pg.getMetadata());
    updated.setAdditionalProperties(new LinkedHashMap<>(pg.getAdditionalProperties()));
    updated.getAdditionalProperties().put("status", status);
    deps.client()
        .genericKubernetesResources(PodGroupClaims.API_VERSION, PodGroupClaims.KIND)
        .inNamespace(pg.getMetadata().getNamespace())
        .resource(updated)
        .updateStatus();
  }

  private void deleteQuietly(ResourceClaim claim) {
    try {
      deps.client().resource(claim).delete();
    } catch (KubernetesClientException e) {
      // The garbage collector deletes it with the PodGroup; nothing uses it meanwhile.
    }
  }

  /**
   * Whether some pod of the group that may still run uses the claim (its status names it): then the
   * group's reservation stays. Reads the pod informer of the namespace.
   */
  boolean groupStillUses(String namespace, String group, String claimName) {
    for (Pod pod : deps.pods().list(namespace)) {
      if (!Objects.equals(PodGroupClaims.podGroupName(pod), group) || Pods.isDone(pod)) {
        continue;
      }
      if (pod.getStatus() != null
          && pod.getStatus().getResourceClaimStatuses() != null
          && pod.getStatus().getResourceClaimStatuses().stream()
              .anyMatch(s -> claimName.equals(s.getResourceClaimName()))) {
        return true;
      }
      for (PodResourceClaim pc : Pods.resourceClaims(pod)) {
        if (claimName.equals(pc.getResourceClaimName())) {
          return true;
        }
      }
    }
    return false;
  }
}
