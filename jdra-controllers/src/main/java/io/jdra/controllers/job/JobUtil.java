package io.jdra.controllers.job;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.jdra.controllers.controllerutil.PodUtil;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Upstream's job utilities: condition types and reasons, failure and finish of pods. */
final class JobUtil {
  static final String JOB_TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking";

  static final String COMPLETE = "Complete";
  static final String FAILED = "Failed";
  static final String FAILURE_TARGET = "FailureTarget";
  static final String SUCCESS_CRITERIA_MET = "SuccessCriteriaMet";
  static final String SUSPENDED = "Suspended";

  static final String REASON_BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded";
  static final String REASON_DEADLINE_EXCEEDED = "DeadlineExceeded";
  static final String REASON_POD_FAILURE_POLICY = "PodFailurePolicy";
  static final String REASON_COMPLETIONS_REACHED = "CompletionsReached";

  private JobUtil() {}

  static boolean hasTrackingFinalizer(Pod p) {
    List<String> f = p.getMetadata().getFinalizers();
    return f != null && f.contains(JOB_TRACKING_FINALIZER);
  }

  static JobCondition condition(Job job, String type) {
    if (job.getStatus() == null || job.getStatus().getConditions() == null) {
      return null;
    }
    return job.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()))
        .findFirst()
        .orElse(null);
  }

  static boolean isTrue(JobCondition c) {
    return c != null && "True".equals(c.getStatus());
  }

  /** Upstream's {@code IsJobFinished}: Complete or Failed is True. */
  static boolean isFinished(Job job) {
    return isTrue(condition(job, COMPLETE)) || isTrue(condition(job, FAILED));
  }

  static JobCondition newCondition(String type, String reason, String message, Instant now) {
    String t = PodUtil.format(now);
    return new JobConditionBuilder()
        .withType(type)
        .withStatus("True")
        .withReason(reason)
        .withMessage(message)
        .withLastProbeTime(t)
        .withLastTransitionTime(t)
        .build();
  }

  /**
   * Upstream's {@code ensureJobConditionStatus}: sets the condition to this status, reason and
   * message (a transition only when the status changes); returns the new list, or null when nothing
   * changed.
   */
  static List<JobCondition> ensureCondition(
      List<JobCondition> list, String type, String status, String reason, String msg, Instant now) {
    List<JobCondition> out = new ArrayList<>(list == null ? List.of() : list);
    String t = PodUtil.format(now);
    for (int i = 0; i < out.size(); i++) {
      JobCondition c = out.get(i);
      if (!type.equals(c.getType())) {
        continue;
      }
      if (Objects.equals(c.getStatus(), status)
          && Objects.equals(c.getReason(), reason)
          && Objects.equals(c.getMessage(), msg)) {
        return null;
      }
      JobConditionBuilder b =
          new JobConditionBuilder(c).withReason(reason).withMessage(msg).withLastProbeTime(t);
      if (!Objects.equals(c.getStatus(), status)) {
        b.withStatus(status).withLastTransitionTime(t);
      }
      out.set(i, b.build());
      return out;
    }
    if ("False".equals(status)) {
      return null; // a False condition that never was True is not added
    }
    out.add(
        new JobConditionBuilder()
            .withType(type)
            .withStatus(status)
            .withReason(reason)
            .withMessage(msg)
            .withLastProbeTime(t)
            .withLastTransitionTime(t)
            .build());
    return out;
  }

  static boolean onlyReplaceFailedPods(Job job) {
    return "Failed".equals(job.getSpec().getPodReplacementPolicy())
        || job.getSpec().getPodFailurePolicy() != null;
  }

  /**
   * Upstream's {@code isPodFailed}: phase Failed; unless only failed pods are replaced, also a pod
   * being deleted before it succeeded (it may never reach Failed).
   */
  static boolean isPodFailed(Pod p, Job job) {
    String phase = PodUtil.phase(p);
    if (onlyReplaceFailedPods(job)) {
      return phase.equals("Failed");
    }
    return phase.equals("Failed")
        || p.getMetadata().getDeletionTimestamp() != null && !phase.equals("Succeeded");
  }

  /**
   * Upstream's {@code getFinishedTime}: the latest container termination, else the deletion time,
   * else the creation time.
   */
  static Instant finishedTime(Pod p) {
    Instant latest = null;
    if (p.getStatus() != null && p.getStatus().getContainerStatuses() != null) {
      for (ContainerStatus s : p.getStatus().getContainerStatuses()) {
        if (s.getState() != null && s.getState().getTerminated() != null) {
          Instant t = PodUtil.time(s.getState().getTerminated().getFinishedAt());
          if (t != null && (latest == null || t.isAfter(latest))) {
            latest = t;
          }
        }
      }
    }
    if (latest != null) {
      return latest;
    }
    Instant deleted = PodUtil.time(p.getMetadata().getDeletionTimestamp());
    if (deleted != null) {
      return deleted;
    }
    Instant created = PodUtil.time(p.getMetadata().getCreationTimestamp());
    return created == null ? Instant.EPOCH : created;
  }

  /**
   * Removes the tracking finalizer with upstream's strategic merge patch ({@code
   * $deleteFromPrimitiveList}, so other finalizers are untouched); false if the pod is gone, which
   * leaves nothing to remove.
   */
  static boolean removeTrackingFinalizer(KubernetesClient client, Pod p) {
    try {
      client
          .pods()
          .inNamespace(p.getMetadata().getNamespace())
          .withName(p.getMetadata().getName())
          .patch(
              PatchContext.of(PatchType.STRATEGIC_MERGE),
              "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":[\""
                  + JOB_TRACKING_FINALIZER
                  + "\"]}}");
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
      return false;
    }
  }

  static int nz(Integer i) {
    return i == null ? 0 : i;
  }
}
