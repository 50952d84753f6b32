package io.jdra.controllers.resourceclaim;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import java.util.List;

/** Pod predicates the controller's decisions rest on (upstream podutil and controller helpers). */
final class Pods {
  private Pods() {}

  /** Upstream IsPodTerminal: phase Succeeded or Failed; such a pod never runs again. */
  static boolean isTerminal(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  static boolean isDeleted(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() != null;
  }

  static boolean isScheduled(Pod pod) {
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    return node != null && !node.isEmpty();
  }

  /**
   * Upstream isPodDone: the pod will not use its claims any more, because it terminated or was
   * deleted before it got a node (a scheduled pod being deleted may still be running).
   */
  static boolean isDone(Pod pod) {
    return isTerminal(pod) || (isDeleted(pod) && !isScheduled(pod));
  }

  /**
   * Upstream podNeedsClaims: whether the pod may still need its claims, with the reason for logs.
   * When not, the claims it references are re-checked so that their reservations get released.
   */
  static Decision needsClaims(Pod pod, boolean deleted) {
    if (deleted) {
      return new Decision(false, "pod got removed");
    }
    if (isTerminal(pod)) {
      return new Decision(false, "pod has terminated");
    }
    if (isDeleted(pod) && !isScheduled(pod)) {
      return new Decision(false, "pod got deleted before scheduling");
    }
    return new Decision(true, "pod might run");
  }

  static List<PodResourceClaim> resourceClaims(Pod pod) {
    if (pod.getSpec() == null || pod.getSpec().getResourceClaims() == null) {
      return List.of();
    }
    return pod.getSpec().getResourceClaims();
  }

  /** The generated extended-resource claim recorded in the pod status, or null. */
  static String extendedResourceClaimName(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getExtendedResourceClaimStatus() == null) {
      return null;
    }
    String name = pod.getStatus().getExtendedResourceClaimStatus().getResourceClaimName();
    return name == null || name.isEmpty() ? null : name;
  }

  static String uid(Pod pod) {
    String uid = pod.getMetadata().getUid();
    return uid == null ? "" : uid;
  }

  /** A yes/no answer with the reason logged at V(6), as upstream's (bool, string) pairs. */
  record Decision(boolean yes, String reason) {}
}
