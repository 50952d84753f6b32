package io.jdra.scheduler;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.jdra.runtime.Ctx;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Writes the pod's {@code PodScheduled} condition (upstream {@code updatePod}). */
final class PodStatusPatch {
  private PodStatusPatch() {}

  static void podScheduledFalse(
      Ctx ctx, KubernetesClient client, Pod pod, String reason, String message) {
    List<PodCondition> conds = new ArrayList<>();
    if (pod.getStatus() != null && pod.getStatus().getConditions() != null) {
      for (PodCondition c : pod.getStatus().getConditions()) {
        if (!"PodScheduled".equals(c.getType())) {
          conds.add(c);
        }
      }
    }
    conds.add(
        new PodConditionBuilder()
            .withType("PodScheduled")
            .withStatus("False")
            .withReason(reason)
            .withMessage(message)
            .withLastTransitionTime(
                DateTimeFormatter.ISO_INSTANT.format(
                    ctx.clock().now().truncatedTo(ChronoUnit.SECONDS)))
            .build());
    String patch = Serialization.asJson(Map.of("status", Map.of("conditions", conds)));
    try {
      client
          .pods()
          .inNamespace(pod.getMetadata().getNamespace())
          .withName(pod.getMetadata().getName())
          .subresource("status")
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    } catch (KubernetesClientException e) {
      ctx.logger()
          .v(3)
          .info(
              "Updating pod condition failed",
              "pod",
              pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(),
              "err",
              e.getMessage());
    }
  }
}
