package io.jdra.controllers.deployment;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.RollingUpdateDeployment;
import io.jdra.controllers.controllerutil.PodTemplateHash;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Upstream's {@code pkg/controller/deployment/util}: annotations, revisions, surge and
 * unavailability, replica counts, conditions. Stateless; never changes its arguments except where a
 * method says so.
 */
final class DeploymentUtil {
  static final String REVISION_ANNOTATION = "deployment.kubernetes.io/revision";
  static final String REVISION_HISTORY_ANNOTATION = "deployment.kubernetes.io/revision-history";
  static final String DESIRED_REPLICAS_ANNOTATION = "deployment.kubernetes.io/desired-replicas";
  static final String MAX_REPLICAS_ANNOTATION = "deployment.kubernetes.io/max-replicas";
  static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  // Condition types and reasons (upstream names).
  static final String PROGRESSING = "Progressing";
  static final String AVAILABLE = "Available";
  static final String REPLICA_FAILURE = "ReplicaFailure";
  static final String REPLICA_SET_UPDATED_REASON = "ReplicaSetUpdated";
  static final String FAILED_RS_CREATE_REASON = "ReplicaSetCreateError";
  static final String NEW_REPLICA_SET_REASON = "NewReplicaSetCreated";
  static final String FOUND_NEW_RS_REASON = "FoundNewReplicaSet";
  static final String NEW_RS_AVAILABLE_REASON = "NewReplicaSetAvailable";
  static final String TIMED_OUT_REASON = "ProgressDeadlineExceeded";
  static final String PAUSED_DEPLOY_REASON = "DeploymentPaused";
  static final String RESUMED_DEPLOY_REASON = "DeploymentResumed";
  static final String MINIMUM_REPLICAS_AVAILABLE = "MinimumReplicasAvailable";
  static final String MINIMUM_REPLICAS_UNAVAILABLE = "MinimumReplicasUnavailable";

  /** Annotations a Deployment does not pass on to its ReplicaSets. */
  static final Set<String> ANNOTATIONS_TO_SKIP =
      Set.of(
          LAST_APPLIED,
          REVISION_ANNOTATION,
          REVISION_HISTORY_ANNOTATION,
          DESIRED_REPLICAS_ANNOTATION,
          MAX_REPLICAS_ANNOTATION,
          "deprecated.deployment.rollback.to");

  private DeploymentUtil() {}

  static int replicas(Deployment d) {
    return d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
  }

  static int replicas(ReplicaSet rs) {
    return rs.getSpec().getReplicas() == null ? 1 : rs.getSpec().getReplicas();
  }

  static int nz(Integer i) {
    return i == null ? 0 : i;
  }

  static boolean isRollingUpdate(Deployment d) {
    return d.getSpec().getStrategy() == null
        || !"Recreate".equals(d.getSpec().getStrategy().getType());
  }

  static boolean isRecreate(Deployment d) {
    return !isRollingUpdate(d);
  }

  /** [maxSurge, maxUnavailable] (upstream's {@code ResolveFenceposts}). */
  static int[] resolveFenceposts(Deployment d) {
    RollingUpdateDeployment ru =
        d.getSpec().getStrategy() == null ? null : d.getSpec().getStrategy().getRollingUpdate();
    IntOrString surge =
        ru == null || ru.getMaxSurge() == null ? new IntOrString("25%") : ru.getMaxSurge();
    IntOrString unavail =
        ru == null || ru.getMaxUnavailable() == null
            ? new IntOrString("25%")
            : ru.getMaxUnavailable();
    int desired = replicas(d);
    int s = scaled(surge, desired, true);
    int u = scaled(unavail, desired, false);
    if (s == 0 && u == 0) {
      // Both zero would block every rollout; upstream allows one unavailable pod then.
      u = 1;
    }
    return new int[] {s, u};
  }

  /** Upstream's {@code GetScaledValueFromIntOrPercent}: percentages rounded up or down. */
  static int scaled(IntOrString v, int total, boolean roundUp) {
    if (v.getIntVal() != null) {
      return v.getIntVal();
    }
    String s = v.getStrVal();
    if (s == null || !s.endsWith("%")) {
      throw new IllegalArgumentException(
          "invalid value for IntOrString: invalid value \"" + s + "\"");
    }
    long pct = Long.parseLong(s.substring(0, s.length() - 1));
    long product = pct * total;
    return (int) (roundUp ? (product + 99) / 100 : product / 100);
  }

  static int maxSurge(Deployment d) {
    return isRollingUpdate(d) ? resolveFenceposts(d)[0] : 0;
  }

  static int maxUnavailable(Deployment d) {
    if (!isRollingUpdate(d) || replicas(d) == 0) {
      return 0;
    }
    return Math.min(resolveFenceposts(d)[1], replicas(d));
  }

  static boolean hasProgressDeadline(Deployment d) {
    Integer p = d.getSpec().getProgressDeadlineSeconds();
    return p != null && p != Integer.MAX_VALUE;
  }

  static long revision(ReplicaSet rs) {
    Map<String, String> a = rs.getMetadata().getAnnotations();
    String v = a == null ? null : a.get(REVISION_ANNOTATION);
    if (v == null) {
      return 0;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      return 0; // upstream skips unparsable revisions
    }
  }

  static long maxRevision(List<ReplicaSet> rss) {
    long max = 0;
    for (ReplicaSet rs : rss) {
      max = Math.max(max, revision(rs));
    }
    return max;
  }

  static Integer annotationInt(ReplicaSet rs, String key) {
    Map<String, String> a = rs.getMetadata().getAnnotations();
    String v = a == null ? null : a.get(key);
    if (v == null) {
      return null;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * Sets {@code desired-replicas} and {@code max-replicas} on the (mutable) ReplicaSet; true when
   * they changed.
   */
  static boolean setReplicasAnnotations(ReplicaSet rs, int desired, int max) {
    Map<String, String> a = annotations(rs);
    boolean changed =
        !String.valueOf(desired).equals(a.get(DESIRED_REPLICAS_ANNOTATION))
            || !String.valueOf(max).equals(a.get(MAX_REPLICAS_ANNOTATION));
    a.put(DESIRED_REPLICAS_ANNOTATION, String.valueOf(desired));
    a.put(MAX_REPLICAS_ANNOTATION, String.valueOf(max));
    return changed;
  }

  static boolean replicasAnnotationsNeedUpdate(ReplicaSet rs, int desired, int max) {
    Map<String, String> a = rs.getMetadata().getAnnotations();
    return a == null
        || !String.valueOf(desired).equals(a.get(DESIRED_REPLICAS_ANNOTATION))
        || !String.valueOf(max).equals(a.get(MAX_REPLICAS_ANNOTATION));
  }

  static Map<String, String> annotations(ReplicaSet rs) {
    if (rs.getMetadata().getAnnotations() == null) {
      rs.getMetadata().setAnnotations(new HashMap<>());
    }
    return rs.getMetadata().getAnnotations();
  }

  /**
   * Upstream's {@code SetNewReplicaSetAnnotations} on a mutable copy: the Deployment's annotations
   * (but the skipped ones), the revision when it grows (keeping the old one in {@code
   * revision-history}), and for a new ReplicaSet the replicas annotations. True when changed.
   */
  static boolean setNewReplicaSetAnnotations(
      Deployment d, ReplicaSet rs, long newRevision, boolean exists) {
    Map<String, String> a = annotations(rs);
    boolean changed = false;
    if (d.getMetadata().getAnnotations() != null) {
      for (Map.Entry<String, String> e : d.getMetadata().getAnnotations().entrySet()) {
        if (!ANNOTATIONS_TO_SKIP.contains(e.getKey())
            && !Objects.equals(a.get(e.getKey()), e.getValue())) {
          a.put(e.getKey(), e.getValue());
          changed = true;
        }
      }
    }
    String oldRevision = a.get(REVISION_ANNOTATION);
    long old = revision(rs);
    if (old < newRevision) {
      a.put(REVISION_ANNOTATION, String.valueOf(newRevision));
      changed = true;
      if (oldRevision != null) {
        String history = a.get(REVISION_HISTORY_ANNOTATION);
        a.put(
            REVISION_HISTORY_ANNOTATION,
            history == null || history.isEmpty() ? oldRevision : history + "," + oldRevision);
      }
    }
    if (!exists && setReplicasAnnotations(rs, replicas(d), replicas(d) + maxSurge(d))) {
      changed = true;
    }
    return changed;
  }

  /** Upstream's {@code FindNewReplicaSet}: the oldest with the Deployment's template. */
  static ReplicaSet findNewReplicaSet(Deployment d, List<ReplicaSet> rss) {
    List<ReplicaSet> sorted = new ArrayList<>(rss);
    sorted.sort(BY_CREATION);
    for (ReplicaSet rs : sorted) {
      if (PodTemplateHash.equalIgnoreHash(rs.getSpec().getTemplate(), d.getSpec().getTemplate())) {
        return rs;
      }
    }
    return null;
  }

  /** Upstream's {@code FindOldReplicaSets}: all but the new one. */
  static List<ReplicaSet> findOldReplicaSets(Deployment d, List<ReplicaSet> rss) {
    ReplicaSet newRs = findNewReplicaSet(d, rss);
    List<ReplicaSet> old = new ArrayList<>();
    for (ReplicaSet rs : rss) {
      if (newRs == null || !rs.getMetadata().getUid().equals(newRs.getMetadata().getUid())) {
        old.add(rs);
      }
    }
    return old;
  }

  /** Upstream's {@code ReplicaSetsByCreationTimestamp}: oldest first, ties by name. */
  static final Comparator<ReplicaSet> BY_CREATION =
      Comparator.comparing((ReplicaSet rs) -> created(rs))
          .thenComparing(rs -> rs.getMetadata().getName());

  static Instant created(ReplicaSet rs) {
    String t = rs.getMetadata().getCreationTimestamp();
    return t == null ? Instant.EPOCH : Instant.parse(t);
  }

  static List<ReplicaSet> filterActive(List<ReplicaSet> rss) {
    List<ReplicaSet> out = new ArrayList<>();
    for (ReplicaSet rs : rss) {
      if (rs != null && replicas(rs) > 0) {
        out.add(rs);
      }
    }
    return out;
  }

  static List<ReplicaSet> withNew(List<ReplicaSet> old, ReplicaSet newRs) {
    List<ReplicaSet> all = new ArrayList<>(old);
    if (newRs != null) {
      all.add(newRs);
    }
    return all;
  }

  /** Sum of {@code spec.replicas}. */
  static int replicaCount(List<ReplicaSet> rss) {
    return rss.stream().filter(Objects::nonNull).mapToInt(DeploymentUtil::replicas).sum();
  }

  /** Sum of {@code status.replicas}. */
  static int actualReplicaCount(List<ReplicaSet> rss) {
    return rss.stream()
        .filter(rs -> rs != null && rs.getStatus() != null)
        .mapToInt(rs -> nz(rs.getStatus().getReplicas()))
        .sum();
  }

  static int readyReplicaCount(List<ReplicaSet> rss) {
    return rss.stream()
        .filter(rs -> rs != null && rs.getStatus() != null)
        .mapToInt(rs -> nz(rs.getStatus().getReadyReplicas()))
        .sum();
  }

  static int availableReplicaCount(List<ReplicaSet> rss) {
    return rss.stream()
        .filter(rs -> rs != null && rs.getStatus() != null)
        .mapToInt(rs -> nz(rs.getStatus().getAvailableReplicas()))
        .sum();
  }

  static int available(ReplicaSet rs) {
    return rs.getStatus() == null ? 0 : nz(rs.getStatus().getAvailableReplicas());
  }

  /** Upstream's {@code NewRSNewReplicas}: how far the new ReplicaSet may grow now. */
  static int newRsNewReplicas(Deployment d, List<ReplicaSet> all, ReplicaSet newRs) {
    if (!isRollingUpdate(d)) {
      return replicas(d);
    }
    int current = replicaCount(all);
    int maxTotal = replicas(d) + maxSurge(d);
    if (current >= maxTotal) {
      return replicas(newRs);
    }
    int up = Math.min(maxTotal - current, replicas(d) - replicas(newRs));
    return replicas(newRs) + up;
  }

  /** Upstream's {@code IsSaturated}: the new ReplicaSet has all replicas, all available. */
  static boolean isSaturated(Deployment d, ReplicaSet rs) {
    if (rs == null) {
      return false;
    }
    Integer desired = annotationInt(rs, DESIRED_REPLICAS_ANNOTATION);
    return desired != null
        && replicas(rs) == replicas(d)
        && desired == replicas(d)
        && available(rs) == replicas(d);
  }

  /** Upstream's {@code DeploymentComplete}. */
  static boolean deploymentComplete(Deployment d, DeploymentStatus s) {
    return nz(s.getUpdatedReplicas()) == replicas(d)
        && nz(s.getReplicas()) == replicas(d)
        && nz(s.getAvailableReplicas()) == replicas(d)
        && s.getObservedGeneration() != null
        && s.getObservedGeneration() >= d.getMetadata().getGeneration();
  }

  /** Upstream's {@code DeploymentProgressing}: the new status moved the rollout forward. */
  static boolean deploymentProgressing(Deployment d, DeploymentStatus s) {
    DeploymentStatus old = d.getStatus() == null ? new DeploymentStatus() : d.getStatus();
    int oldOld = nz(old.getReplicas()) - nz(old.getUpdatedReplicas());
    int newOld = nz(s.getReplicas()) - nz(s.getUpdatedReplicas());
    return nz(s.getUpdatedReplicas()) > nz(old.getUpdatedReplicas())
        || newOld < oldOld
        || nz(s.getReadyReplicas()) > nz(old.getReadyReplicas())
        || nz(s.getAvailableReplicas()) > nz(old.getAvailableReplicas());
  }

  /** Upstream's {@code DeploymentTimedOut}. */
  static boolean deploymentTimedOut(Deployment d, DeploymentStatus s, Instant now) {
    if (!hasProgressDeadline(d)) {
      return false;
    }
    DeploymentCondition c = condition(s, PROGRESSING);
    if (c == null || NEW_RS_AVAILABLE_REASON.equals(c.getReason())) {
      return false;
    }
    if (TIMED_OUT_REASON.equals(c.getReason())) {
      return true;
    }
    Instant from = Instant.parse(c.getLastUpdateTime());
    return from.plusSeconds(d.getSpec().getProgressDeadlineSeconds()).isBefore(now);
  }

  static DeploymentCondition condition(DeploymentStatus s, String type) {
    if (s == null || s.getConditions() == null) {
      return null;
    }
    return s.getConditions().stream()
        .filter(c -> type.equals(c.getType()))
        .findFirst()
        .orElse(null);
  }

  static DeploymentCondition newCondition(
      String type, String status, String reason, String message, Instant now) {
    return new DeploymentConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withMessage(message)
        .withLastUpdateTime(io.jdra.controllers.controllerutil.PodUtil.format(now))
        .withLastTransitionTime(io.jdra.controllers.controllerutil.PodUtil.format(now))
        .build();
  }

  /**
   * Upstream's {@code SetDeploymentCondition} on a mutable status: nothing when status and reason
   * are unchanged; the transition time kept when only the reason changes.
   */
  static void setCondition(DeploymentStatus s, DeploymentCondition c) {
    DeploymentCondition cur = condition(s, c.getType());
    if (cur != null
        && Objects.equals(cur.getStatus(), c.getStatus())
        && Objects.equals(cur.getReason(), c.getReason())) {
      return;
    }
    DeploymentCondition next = new DeploymentConditionBuilder(c).build();
    if (cur != null && Objects.equals(cur.getStatus(), c.getStatus())) {
      next.setLastTransitionTime(cur.getLastTransitionTime());
    }
    List<DeploymentCondition> list = new ArrayList<>();
    if (s.getConditions() != null) {
      s.getConditions().stream().filter(x -> !c.getType().equals(x.getType())).forEach(list::add);
    }
    list.add(next);
    s.setConditions(list);
  }

  static void removeCondition(DeploymentStatus s, String type) {
    if (s.getConditions() != null) {
      List<DeploymentCondition> list = new ArrayList<>(s.getConditions());
      list.removeIf(c -> type.equals(c.getType()));
      s.setConditions(list);
    }
  }

  /**
   * Upstream's {@code GetProportion}: this ReplicaSet's share of a scaling by {@code toAdd}, given
   * {@code added} so far, by the ratio of its size to the Deployment's size it was made for.
   */
  static int proportion(ReplicaSet rs, Deployment d, int toAdd, int added) {
    if (rs == null || replicas(rs) == 0 || toAdd == 0 || toAdd == added) {
      return 0;
    }
    int fraction = fraction(rs, d);
    int allowed = toAdd - added;
    return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
  }

  private static int fraction(ReplicaSet rs, Deployment d) {
    if (replicas(d) == 0) {
      return -replicas(rs);
    }
    int deploymentReplicas = replicas(d) + maxSurge(d);
    Integer annotated = annotationInt(rs, MAX_REPLICAS_ANNOTATION);
    if (annotated == null) {
      annotated = d.getStatus() == null ? 0 : nz(d.getStatus().getReplicas());
    }
    if (annotated == 0) {
      return 0; // nothing to scale from
    }
    double size = (double) replicas(rs) * deploymentReplicas / annotated;
    return (int) Math.round(size) - replicas(rs);
  }
}
