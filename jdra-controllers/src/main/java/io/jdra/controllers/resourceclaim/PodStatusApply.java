package io.jdra.controllers.resourceclaim;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The server-side apply configuration for {@code pod.status.resourceClaimStatuses} (upstream's
 * corev1apply.Pod(...).WithStatus(...)): only name, namespace and the entries this controller owns.
 */
final class PodStatusApply {
  private PodStatusApply() {}

  static Pod body(String namespace, String name, Map<String, String> claimNames) {
    List<PodResourceClaimStatus> statuses = new ArrayList<>();
    claimNames.forEach(
        (podClaim, claim) -> statuses.add(new PodResourceClaimStatus(podClaim, claim)));
    return new PodBuilder()
        .withApiVersion("v1")
        .withKind("Pod")
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .endMetadata()
        .withNewStatus()
        .withResourceClaimStatuses(statuses)
        .endStatus()
        .build();
  }
}
