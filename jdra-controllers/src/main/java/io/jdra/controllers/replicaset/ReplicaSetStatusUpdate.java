package io.jdra.controllers.replicaset;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetCondition;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatus;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.controllers.controllerutil.ApiErrors;
import io.jdra.controllers.controllerutil.LabelSelectors;
import io.jdra.controllers.controllerutil.PodUtil;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Upstream's {@code calculateStatus} and {@code updateReplicaSetStatus} (replica_set_utils.go):
 * counts of the claimed pods, the {@code ReplicaFailure} condition while creating or deleting
 * fails, and a status write only when something changed. Stateless.
 */
final class ReplicaSetStatusUpdate {
  /** Upstream's {@code statusUpdateRetries}: one re-read and retry after a conflict. */
  static final int STATUS_UPDATE_RETRIES = 1;

  static final String REPLICA_FAILURE = "ReplicaFailure";

  private ReplicaSetStatusUpdate() {}

  static ReplicaSetStatus calculate(
      ReplicaSet rs, List<Pod> pods, RuntimeException manageErr, int replicas, Instant now) {
    int fullyLabeled = 0;
    int ready = 0;
    int available = 0;
    var templateLabels =
        rs.getSpec().getTemplate().getMetadata() == null
            ? null
            : rs.getSpec().getTemplate().getMetadata().getLabels();
    LabelSelector templateSelector = new LabelSelector(null, templateLabels);
    for (Pod p : pods) {
      if (LabelSelectors.matches(templateSelector, p.getMetadata().getLabels())) {
        fullyLabeled++;
      }
      if (PodUtil.isPodReady(p)) {
        ready++;
        if (PodUtil.isPodAvailable(p, ReplicaSetController.minReadySeconds(rs), now)) {
          available++;
        }
      }
    }
    ReplicaSetStatus old = rs.getStatus() == null ? new ReplicaSetStatus() : rs.getStatus();
    List<ReplicaSetCondition> conditions =
        new ArrayList<>(old.getConditions() == null ? List.of() : old.getConditions());
    boolean hasFailure = conditions.stream().anyMatch(c -> REPLICA_FAILURE.equals(c.getType()));
    if (manageErr != null && !hasFailure) {
      String reason = pods.size() < replicas ? "FailedCreate" : "FailedDelete";
      conditions.add(
          new ReplicaSetConditionBuilder()
              .withType(REPLICA_FAILURE)
              .withStatus("True")
              .withReason(reason)
              .withMessage(ApiErrors.message(manageErr))
              .withLastTransitionTime(io.jdra.controllers.controllerutil.PodUtil.format(now))
              .build());
    } else if (manageErr == null && hasFailure) {
      conditions.removeIf(c -> REPLICA_FAILURE.equals(c.getType()));
    }
    return new ReplicaSetStatusBuilder(old)
        .withReplicas(pods.size())
        .withFullyLabeledReplicas(fullyLabeled)
        .withReadyReplicas(ready)
        .withAvailableReplicas(available)
        .withConditions(conditions.isEmpty() ? null : conditions)
        .build();
  }

  /**
   * Writes {@code status} unless the ReplicaSet already has it for its generation; returns the
   * ReplicaSet as written (or as given when nothing was written).
   */
  static ReplicaSet update(KubernetesClient client, ReplicaSet rs, ReplicaSetStatus status) {
    ReplicaSetStatus cur = rs.getStatus() == null ? new ReplicaSetStatus() : rs.getStatus();
    Long generation = rs.getMetadata().getGeneration();
    if (sameCounts(cur, status)
        && Objects.equals(generation, cur.getObservedGeneration())
        && Objects.equals(empty(cur.getConditions()), empty(status.getConditions()))) {
      return rs;
    }
    ReplicaSet target = rs;
    for (int i = 0; ; i++) {
      ReplicaSetStatus next =
          new ReplicaSetStatusBuilder(status)
              .withObservedGeneration(target.getMetadata().getGeneration())
              .build();
      try {
        return client
            .apps()
            .replicaSets()
            .inNamespace(rs.getMetadata().getNamespace())
            .resource(new ReplicaSetBuilder(target).withStatus(next).build())
            .updateStatus();
      } catch (KubernetesClientException e) {
        if (i >= STATUS_UPDATE_RETRIES) {
          throw e;
        }
        ReplicaSet fresh =
            client
                .apps()
                .replicaSets()
                .inNamespace(rs.getMetadata().getNamespace())
                .withName(rs.getMetadata().getName())
                .get();
        if (fresh == null) {
          throw e;
        }
        target = fresh;
      }
    }
  }

  private static boolean sameCounts(ReplicaSetStatus a, ReplicaSetStatus b) {
    return Objects.equals(nz(a.getReplicas()), nz(b.getReplicas()))
        && Objects.equals(nz(a.getFullyLabeledReplicas()), nz(b.getFullyLabeledReplicas()))
        && Objects.equals(nz(a.getReadyReplicas()), nz(b.getReadyReplicas()))
        && Objects.equals(nz(a.getAvailableReplicas()), nz(b.getAvailableReplicas()));
  }

  private static int nz(Integer i) {
    return i == null ? 0 : i;
  }

  private static List<ReplicaSetCondition> empty(List<ReplicaSetCondition> l) {
    return l == null ? List.of() : l;
  }
}
