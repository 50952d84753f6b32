package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.api.resourceclaim.PodClaimName;
import io.jdra.api.resourceclaim.ResourceClaims;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The claims a pod uses (upstream {@code foreachPodResourceClaim}): for each {@code
 * spec.resourceClaims} entry the named claim or the one generated from its template (recorded in
 * {@code status.resourceClaimStatuses}), which must exist, not be being deleted, and for templates
 * be owned by the pod.
 */
final class PodClaims {
  private PodClaims() {}

  /** One pod claim entry and its ResourceClaim. */
  record Entry(PodResourceClaim podClaim, ResourceClaim claim) {}

  /** The claims, or why the pod cannot use them yet. */
  sealed interface Result {}

  record Resolved(List<Entry> entries) implements Result {}

  record Failed(String message) implements Result {}

  static boolean hasClaims(Pod pod) {
    return pod.getSpec().getResourceClaims() != null
        && !pod.getSpec().getResourceClaims().isEmpty();
  }

  static Result resolve(Pod pod, DraManager manager) {
    List<PodResourceClaim> list = pod.getSpec().getResourceClaims();
    if (list == null || list.isEmpty()) {
      return new Resolved(List.of());
    }
    List<Entry> out = new ArrayList<>(list.size());
    for (PodResourceClaim pc : list) {
      PodClaimName n = ResourceClaims.name(pod, pc);
      switch (n) {
        case PodClaimName.Unavailable u -> {
          return new Failed(u.message());
        }
        case PodClaimName.NotNeeded nn -> {
          continue;
        }
        case PodClaimName.Named named -> {
          String ns = pod.getMetadata().getNamespace();
          Optional<ResourceClaim> c = manager.getClaim(ns, named.name());
          if (c.isEmpty()) {
            return new Failed("resourceclaim.resource.k8s.io \"" + named.name() + "\" not found");
          }
          ResourceClaim claim = c.get();
          if (claim.getMetadata().getDeletionTimestamp() != null) {
            return new Failed("resourceclaim \"" + named.name() + "\" is being deleted");
          }
          if (named.mustCheckOwner()) {
            Optional<String> err = ResourceClaims.checkIsForPod(pod, claim);
            if (err.isPresent()) {
              return new Failed(err.get());
            }
          }
          out.add(new Entry(pc, claim));
        }
      }
    }
    return new Resolved(out);
  }

  /** Whether the pod refers to a claim of this name (for queueing hints), without lookups. */
  static boolean uses(Pod pod, String claimName) {
    List<PodResourceClaim> list = pod.getSpec().getResourceClaims();
    if (list == null) {
      return false;
    }
    for (PodResourceClaim pc : list) {
      if (pc.getResourceClaimName() != null) {
        if (pc.getResourceClaimName().equals(claimName)) {
          return true;
        }
      } else if (pc.getResourceClaimTemplateName() != null && generated(pod, pc, claimName)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The names {@link #uses} answers true for: each entry's claim name, or for a template entry the
   * name generated for it in the pod's status (the first status entry of that name), if any.
   */
  static void claimNames(Pod pod, java.util.function.Consumer<String> out) {
    List<PodResourceClaim> list = pod.getSpec().getResourceClaims();
    if (list == null) {
      return;
    }
    for (PodResourceClaim pc : list) {
      if (pc.getResourceClaimName() != null) {
        out.accept(pc.getResourceClaimName());
      } else if (pc.getResourceClaimTemplateName() != null) {
        String generated = generatedName(pod, pc);
        if (generated != null) {
          out.accept(generated);
        }
      }
    }
  }

  private static String generatedName(Pod pod, PodResourceClaim pc) {
    if (pod.getStatus() == null || pod.getStatus().getResourceClaimStatuses() == null) {
      return null;
    }
    for (PodResourceClaimStatus st : pod.getStatus().getResourceClaimStatuses()) {
      if (java.util.Objects.equals(st.getName(), pc.getName())) {
        return st.getResourceClaimName();
      }
    }
    return null;
  }

  /**
   * As {@link ResourceClaims#name}'s Named answer for a template entry, without building the
   * message of a claim not generated yet (most pods waiting for a claim have none).
   */
  private static boolean generated(Pod pod, PodResourceClaim pc, String claimName) {
    return claimName.equals(generatedName(pod, pc));
  }
}
