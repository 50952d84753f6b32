package io.jdra.controllers.deployment;

import static io.jdra.controllers.deployment.DeploymentUtil.replicas;

import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Upstream's {@code calculateStatus}, {@code syncDeploymentStatus}, {@code syncRolloutStatus} and
 * {@code requeueStuckDeployment} (progress.go, sync.go): the counts over all ReplicaSets, {@code
 * Available} (at least {@code replicas - maxUnavailable} available), {@code Progressing} with its
 * reasons and the progress deadline, the new ReplicaSet's {@code ReplicaFailure}.
 */
final class DeploymentStatuses {
  private final SyncDeployment s;

  DeploymentStatuses(SyncDeployment s) {
    this.s = s;
  }

  DeploymentStatus calculate(List<ReplicaSet> all, ReplicaSet newRs) {
    int available = DeploymentUtil.availableReplicaCount(all);
    int total = DeploymentUtil.replicaCount(all);
    DeploymentStatus old = s.d.getStatus();
    DeploymentStatus status =
        new DeploymentStatusBuilder()
            .withObservedGeneration(s.d.getMetadata().getGeneration())
            .withReplicas(DeploymentUtil.actualReplicaCount(all))
            .withUpdatedReplicas(
                newRs == null ? 0 : DeploymentUtil.actualReplicaCount(List.of(newRs)))
            .withReadyReplicas(DeploymentUtil.readyReplicaCount(all))
            .withAvailableReplicas(available)
            .withUnavailableReplicas(Math.max(0, total - available))
            .withCollisionCount(old.getCollisionCount())
            .build();
    List<DeploymentCondition> conditions = new ArrayList<>();
    if (old.getConditions() != null) {
      old.getConditions().forEach(c -> conditions.add(new DeploymentConditionBuilder(c).build()));
    }
    status.setConditions(conditions);
    Instant now = s.deps.clock().now();
    if (available >= replicas(s.d) - DeploymentUtil.maxUnavailable(s.d)) {
      DeploymentUtil.setCondition(
          status,
          DeploymentUtil.newCondition(
              DeploymentUtil.AVAILABLE,
              "True",
              DeploymentUtil.MINIMUM_REPLICAS_AVAILABLE,
              "Deployment has minimum availability.",
              now));
    } else {
      DeploymentUtil.setCondition(
          status,
          DeploymentUtil.newCondition(
              DeploymentUtil.AVAILABLE,
              "False",
              DeploymentUtil.MINIMUM_REPLICAS_UNAVAILABLE,
              "Deployment does not have minimum availability.",
              now));
    }
    return status;
  }

  /** Writes the calculated status when it differs. */
  void syncDeploymentStatus(List<ReplicaSet> all, ReplicaSet newRs) {
    DeploymentStatus next = calculate(all, newRs);
    if (!same(s.d.getStatus(), next)) {
      s.d.setStatus(next);
      s.updateStatus();
    }
  }

  /** Upstream's {@code syncRolloutStatus}. */
  void syncRolloutStatus(List<ReplicaSet> all, ReplicaSet newRs) {
    DeploymentStatus next = calculate(all, newRs);
    Instant now = s.deps.clock().now();
    if (!DeploymentUtil.hasProgressDeadline(s.d)) {
      DeploymentUtil.removeCondition(next, DeploymentUtil.PROGRESSING);
    }
    DeploymentCondition cur = DeploymentUtil.condition(s.d.getStatus(), DeploymentUtil.PROGRESSING);
    boolean complete =
        Objects.equals(next.getReplicas(), next.getUpdatedReplicas())
            && cur != null
            && DeploymentUtil.NEW_RS_AVAILABLE_REASON.equals(cur.getReason());
    if (DeploymentUtil.hasProgressDeadline(s.d) && !complete) {
      progressing(next, cur, newRs, now);
    }
    ReplicaSetCondition failure = replicaFailure(all, newRs);
    if (failure != null) {
      DeploymentUtil.setCondition(
          next,
          new DeploymentConditionBuilder()
              .withType(failure.getType())
              .withStatus(failure.getStatus())
              .withReason(failure.getReason())
              .withMessage(failure.getMessage())
              .withLastTransitionTime(failure.getLastTransitionTime())
              .withLastUpdateTime(failure.getLastTransitionTime())
              .build());
    } else {
      DeploymentUtil.removeCondition(next, DeploymentUtil.REPLICA_FAILURE);
    }
    if (same(s.d.getStatus(), next)) {
      requeueStuckDeployment(next, now);
      return;
    }
    s.d.setStatus(next);
    s.updateStatus();
  }

  private void progressing(
      DeploymentStatus next, DeploymentCondition cur, ReplicaSet newRs, Instant now) {
    String subject =
        newRs != null
            ? "ReplicaSet \"" + newRs.getMetadata().getName() + "\""
            : "Deployment \"" + s.d.getMetadata().getName() + "\"";
    if (DeploymentUtil.deploymentComplete(s.d, next)) {
      DeploymentUtil.setCondition(
          next,
          DeploymentUtil.newCondition(
              DeploymentUtil.PROGRESSING,
              "True",
              DeploymentUtil.NEW_RS_AVAILABLE_REASON,
              subject + " has successfully progressed.",
              now));
    } else if (DeploymentUtil.deploymentProgressing(s.d, next)) {
      DeploymentCondition c =
          DeploymentUtil.newCondition(
              DeploymentUtil.PROGRESSING,
              "True",
              DeploymentUtil.REPLICA_SET_UPDATED_REASON,
              subject + " is progressing.",
              now);
      // Progress moves lastUpdateTime (the deadline counts from it), even with the same reason.
      if (cur != null) {
        if ("True".equals(cur.getStatus())) {
          c.setLastTransitionTime(cur.getLastTransitionTime());
        }
        DeploymentUtil.removeCondition(next, DeploymentUtil.PROGRESSING);
      }
      DeploymentUtil.setCondition(next, c);
    } else if (DeploymentUtil.deploymentTimedOut(s.d, next, now)) {
      DeploymentUtil.setCondition(
          next,
          DeploymentUtil.newCondition(
              DeploymentUtil.PROGRESSING,
              "False",
              DeploymentUtil.TIMED_OUT_REASON,
              subject + " has timed out progressing.",
              now));
    }
  }

  /** Upstream's {@code getReplicaFailures}: the new ReplicaSet's failure, else an old one's. */
  private static ReplicaSetCondition replicaFailure(List<ReplicaSet> all, ReplicaSet newRs) {
    List<ReplicaSet> order = new ArrayList<>();
    if (newRs != null) {
      order.add(newRs);
    }
    order.addAll(all);
    for (ReplicaSet rs : order) {
      if (rs == null || rs.getStatus() == null || rs.getStatus().getConditions() == null) {
        continue;
      }
      for (ReplicaSetCondition c : rs.getStatus().getConditions()) {
        if (DeploymentUtil.REPLICA_FAILURE.equals(c.getType())) {
          return c;
        }
      }
    }
    return null;
  }

  /**
   * Upstream's {@code requeueStuckDeployment}: with nothing to write, look again when the progress
   * deadline passes, so a stuck rollout gets {@code ProgressDeadlineExceeded} on time.
   */
  private void requeueStuckDeployment(DeploymentStatus next, Instant now) {
    DeploymentCondition cur = DeploymentUtil.condition(s.d.getStatus(), DeploymentUtil.PROGRESSING);
    if (!DeploymentUtil.hasProgressDeadline(s.d)
        || cur == null
        || DeploymentUtil.deploymentComplete(s.d, next)
        || DeploymentUtil.TIMED_OUT_REASON.equals(cur.getReason())) {
      return;
    }
    Duration after =
        Duration.between(
            now,
            Instant.parse(cur.getLastUpdateTime())
                .plusSeconds(s.d.getSpec().getProgressDeadlineSeconds()));
    String key = DeploymentController.key(s.d);
    if (after.compareTo(Duration.ofSeconds(1)) < 0) {
      s.queue.addRateLimited(key);
    } else {
      s.queue.addAfter(key, after.plusSeconds(1));
    }
  }

  static boolean same(DeploymentStatus a, DeploymentStatus b) {
    return Objects.equals(normalize(a), normalize(b));
  }

  /** Null and empty condition lists are the same status. */
  private static DeploymentStatus normalize(DeploymentStatus st) {
    DeploymentStatus c = new DeploymentStatusBuilder(st).build();
    if (c.getConditions() != null && c.getConditions().isEmpty()) {
      c.setConditions(null);
    }
    return c;
  }
}
