package io.jdra.controllers.deployment;

import static io.jdra.controllers.deployment.DeploymentUtil.filterActive;
import static io.jdra.controllers.deployment.DeploymentUtil.maxSurge;
import static io.jdra.controllers.deployment.DeploymentUtil.replicas;
import static io.jdra.controllers.deployment.DeploymentUtil.withNew;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.controllers.controllerutil.ApiErrors;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.PodTemplateHash;
import io.jdra.runtime.record.EventRecorder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The ReplicaSet writes of a Deployment sync (upstream's {@code getNewReplicaSet}, {@code
 * scaleReplicaSet}, {@code scale}, {@code cleanupDeployment}), with upstream's events {@code
 * ScalingReplicaSet} and {@code ReplicaSetCreateError}.
 */
final class ReplicaSetWriter {
  static final String SCALING_REPLICA_SET = "ScalingReplicaSet";

  private final SyncDeployment s;

  ReplicaSetWriter(SyncDeployment s) {
    this.s = s;
  }

  /**
   * Upstream's {@code getNewReplicaSet}: the ReplicaSet with the Deployment's template, its
   * revision and annotations brought up to date; created (named {@code
   * <deployment>-<pod-template-hash>}) when missing and {@code create} is set; null otherwise.
   */
  ReplicaSet newReplicaSet(List<ReplicaSet> rsList, List<ReplicaSet> old, boolean create) {
    ReplicaSet existing = DeploymentUtil.findNewReplicaSet(s.d, rsList);
    long newRevision = DeploymentUtil.maxRevision(old) + 1;
    if (existing != null) {
      return syncExisting(existing, newRevision);
    }
    if (!create) {
      return null;
    }
    return createNew(old, newRevision);
  }

  private ReplicaSet syncExisting(ReplicaSet existing, long newRevision) {
    ReplicaSet copy = new ReplicaSetBuilder(existing).build();
    boolean annotationsUpdated =
        DeploymentUtil.setNewReplicaSetAnnotations(s.d, copy, newRevision, true);
    boolean minReadyUpdated =
        !Objects.equals(
            nz(copy.getSpec().getMinReadySeconds()), nz(s.d.getSpec().getMinReadySeconds()));
    ReplicaSet rs = existing;
    if (annotationsUpdated || minReadyUpdated) {
      copy.getSpec().setMinReadySeconds(s.d.getSpec().getMinReadySeconds());
      rs = update(copy);
    }
    s.setRevision(copy.getMetadata().getAnnotations().get(DeploymentUtil.REVISION_ANNOTATION));
    if (DeploymentUtil.hasProgressDeadline(s.d)
        && DeploymentUtil.condition(s.d.getStatus(), DeploymentUtil.PROGRESSING) == null) {
      DeploymentUtil.setCondition(
          s.d.getStatus(),
          DeploymentUtil.newCondition(
              DeploymentUtil.PROGRESSING,
              "True",
              DeploymentUtil.FOUND_NEW_RS_REASON,
              "Found new replica set \"" + rs.getMetadata().getName() + "\"",
              s.deps.clock().now()));
      s.updateStatus();
    }
    return rs;
  }

  private ReplicaSet createNew(List<ReplicaSet> old, long newRevision) {
    Integer collisionCount = s.d.getStatus().getCollisionCount();
    String hash = PodTemplateHash.compute(s.d.getSpec().getTemplate(), collisionCount);
    PodTemplateSpec template = new PodTemplateSpecBuilder(s.d.getSpec().getTemplate()).build();
    Map<String, String> labels =
        new LinkedHashMap<>(
            template.getMetadata() == null || template.getMetadata().getLabels() == null
                ? Map.of()
                : template.getMetadata().getLabels());
    labels.put(PodTemplateHash.LABEL, hash);
    template.getMetadata().setLabels(labels);
    LabelSelector selector = new LabelSelectorBuilder(s.d.getSpec().getSelector()).build();
    Map<String, String> match =
        new LinkedHashMap<>(
            selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels());
    match.put(PodTemplateHash.LABEL, hash);
    selector.setMatchLabels(match);
    OwnerReference ref = OwnerRefs.newControllerRef(s.d);
    String name = s.d.getMetadata().getName() + "-" + hash;
    ReplicaSet newRs =
        new ReplicaSetBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(s.d.getMetadata().getNamespace())
            .withOwnerReferences(ref)
            .withLabels(labels)
            .endMetadata()
            .withNewSpec()
            .withReplicas(0)
            .withMinReadySeconds(s.d.getSpec().getMinReadySeconds())
            .withSelector(selector)
            .withTemplate(template)
            .endSpec()
            .build();
    int newReplicas = DeploymentUtil.newRsNewReplicas(s.d, withNew(old, newRs), newRs);
    newRs.getSpec().setReplicas(newReplicas);
    DeploymentUtil.setNewReplicaSetAnnotations(s.d, newRs, newRevision, false);
    ReplicaSet created;
    try {
      created =
          s.deps
              .client()
              .apps()
              .replicaSets()
              .inNamespace(s.d.getMetadata().getNamespace())
              .resource(newRs)
              .create();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return alreadyExists(name, e);
      }
      if (!ApiErrors.isNamespaceTerminating(e)) {
        createFailed(name, e);
      }
      throw e;
    }
    if (newReplicas > 0) {
      s.deps
          .recorder()
          .eventf(
              s.d,
              created,
              EventRecorder.NORMAL,
              SCALING_REPLICA_SET,
              "Scale",
              "Scaled up replica set %s from 0 to %d",
              name,
              newReplicas);
    }
    s.setRevision(String.valueOf(newRevision));
    if (DeploymentUtil.hasProgressDeadline(s.d)) {
      DeploymentUtil.setCondition(
          s.d.getStatus(),
          DeploymentUtil.newCondition(
              DeploymentUtil.PROGRESSING,
              "True",
              DeploymentUtil.NEW_REPLICA_SET_REASON,
              "Created new replica set \"" + name + "\"",
              s.deps.clock().now()));
      s.updateStatus();
    }
    return created;
  }

  /**
   * The name is taken: ours with our template (the informer has not shown it yet), or a hash
   * collision, which bumps {@code status.collisionCount} so the next sync picks another name.
   */
  private ReplicaSet alreadyExists(String name, KubernetesClientException e) {
    ReplicaSet rs =
        s.deps
            .client()
            .apps()
            .replicaSets()
            .inNamespace(s.d.getMetadata().getNamespace())
            .withName(name)
            .get();
    OwnerReference ref = rs == null ? null : OwnerRefs.controllerOf(rs);
    if (ref != null
        && ref.getUid().equals(s.d.getMetadata().getUid())
        && PodTemplateHash.equalIgnoreHash(
            s.d.getSpec().getTemplate(), rs.getSpec().getTemplate())) {
      return rs;
    }
    Integer c = s.d.getStatus().getCollisionCount();
    s.d.getStatus().setCollisionCount(c == null ? 1 : c + 1);
    s.updateStatus();
    s.ctx.logger().v(2).info("Found a hash collision for deployment", "name", name);
    throw e;
  }

  private void createFailed(String name, KubernetesClientException e) {
    String msg = "Failed to create new replica set \"" + name + "\": " + ApiErrors.message(e);
    if (DeploymentUtil.hasProgressDeadline(s.d)) {
      DeploymentUtil.setCondition(
          s.d.getStatus(),
          DeploymentUtil.newCondition(
              DeploymentUtil.PROGRESSING,
              "False",
              DeploymentUtil.FAILED_RS_CREATE_REASON,
              msg,
              s.deps.clock().now()));
      s.updateStatus();
    }
    s.deps
        .recorder()
        .eventf(
            s.d,
            null,
            EventRecorder.WARNING,
            DeploymentUtil.FAILED_RS_CREATE_REASON,
            "Create",
            "%s",
            msg);
  }

  /**
   * Upstream's {@code scaleReplicaSetAndRecordEvent}: sets the size (and the replicas annotations);
   * returns the ReplicaSet as written, or as given when the size is already right.
   */
  ReplicaSet scaleAndRecordEvent(ReplicaSet rs, int newScale) {
    if (replicas(rs) == newScale) {
      return rs;
    }
    return scale(rs, newScale, replicas(rs) < newScale ? "up" : "down");
  }

  /** Upstream's {@code scaleReplicaSet}; the event only when the size changed. */
  ReplicaSet scale(ReplicaSet rs, int newScale, String operation) {
    boolean sizeNeedsUpdate = replicas(rs) != newScale;
    int desired = replicas(s.d);
    int max = desired + maxSurge(s.d);
    if (!sizeNeedsUpdate && !DeploymentUtil.replicasAnnotationsNeedUpdate(rs, desired, max)) {
      return rs;
    }
    int oldScale = replicas(rs);
    ReplicaSet copy = new ReplicaSetBuilder(rs).build();
    copy.getSpec().setReplicas(newScale);
    DeploymentUtil.setReplicasAnnotations(copy, desired, max);
    ReplicaSet updated = update(copy);
    if (sizeNeedsUpdate) {
      s.deps
          .recorder()
          .eventf(
              s.d,
              updated,
              EventRecorder.NORMAL,
              SCALING_REPLICA_SET,
              "Scale",
              "Scaled %s replica set %s from %d to %d",
              operation,
              rs.getMetadata().getName(),
              oldScale,
              newScale);
    }
    return updated;
  }

  ReplicaSet update(ReplicaSet rs) {
    return s.deps
        .client()
        .apps()
        .replicaSets()
        .inNamespace(rs.getMetadata().getNamespace())
        .resource(rs)
        .update();
  }

  /**
   * Upstream's {@code scale}: a replica count change outside a rollout step. One active ReplicaSet
   * takes it all; a saturated new one makes the old ones zero; otherwise (rolling update) the
   * change is spread over the active ReplicaSets in proportion to their size, the rounding leftover
   * to the largest. Returns the old ReplicaSets as written.
   */
  List<ReplicaSet> scale(ReplicaSet newRs, List<ReplicaSet> oldRss) {
    List<ReplicaSet> old = new ArrayList<>(oldRss);
    ReplicaSet activeOrLatest = findActiveOrLatest(newRs, old);
    if (activeOrLatest != null) {
      if (replicas(activeOrLatest) != replicas(s.d)) {
        replaceIn(old, scaleAndRecordEvent(activeOrLatest, replicas(s.d)));
      }
      return old;
    }
    if (DeploymentUtil.isSaturated(s.d, newRs)) {
      for (ReplicaSet rs : filterActive(old)) {
        replaceIn(old, scaleAndRecordEvent(rs, 0));
      }
      return old;
    }
    if (!DeploymentUtil.isRollingUpdate(s.d)) {
      return old;
    }
    List<ReplicaSet> all = filterActive(withNew(old, newRs));
    int allowed = replicas(s.d) > 0 ? replicas(s.d) + maxSurge(s.d) : 0;
    int toAdd = allowed - DeploymentUtil.replicaCount(all);
    String operation = "";
    if (toAdd > 0) {
      all.sort(BY_SIZE_NEWER);
      operation = "up";
    } else if (toAdd < 0) {
      all.sort(BY_SIZE_OLDER);
      operation = "down";
    }
    Map<String, Integer> nameToSize = new HashMap<>();
    int added = 0;
    for (ReplicaSet rs : all) {
      int p = toAdd != 0 ? DeploymentUtil.proportion(rs, s.d, toAdd, added) : 0;
      nameToSize.put(rs.getMetadata().getName(), replicas(rs) + p);
      added += p;
    }
    for (int i = 0; i < all.size(); i++) {
      ReplicaSet rs = all.get(i);
      String n = rs.getMetadata().getName();
      if (i == 0 && toAdd != 0) {
        nameToSize.put(n, Math.max(0, nameToSize.get(n) + toAdd - added));
      }
      ReplicaSet written = scale(rs, nameToSize.get(n), operation);
      replaceIn(old, written);
    }
    return old;
  }

  /** Upstream's {@code ReplicaSetsBySizeNewer}: larger first, then newer. */
  static final Comparator<ReplicaSet> BY_SIZE_NEWER =
      Comparator.comparingInt((ReplicaSet rs) -> -replicas(rs))
          .thenComparing(DeploymentUtil.BY_CREATION.reversed());

  /** Upstream's {@code ReplicaSetsBySizeOlder}: larger first, then older. */
  static final Comparator<ReplicaSet> BY_SIZE_OLDER =
      Comparator.comparingInt((ReplicaSet rs) -> -replicas(rs))
          .thenComparing(DeploymentUtil.BY_CREATION);

  /** Upstream's {@code FindActiveOrLatest}. */
  static ReplicaSet findActiveOrLatest(ReplicaSet newRs, List<ReplicaSet> old) {
    if (newRs == null && old.isEmpty()) {
      return null;
    }
    List<ReplicaSet> sortedOld = new ArrayList<>(old);
    sortedOld.sort(DeploymentUtil.BY_CREATION.reversed());
    List<ReplicaSet> active = filterActive(withNew(sortedOld, newRs));
    return switch (active.size()) {
      case 0 -> newRs != null ? newRs : sortedOld.get(0);
      case 1 -> active.get(0);
      default -> null;
    };
  }

  static void replaceIn(List<ReplicaSet> list, ReplicaSet rs) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).getMetadata().getUid().equals(rs.getMetadata().getUid())) {
        list.set(i, rs);
      }
    }
  }

  /**
   * Upstream's {@code cleanupDeployment}: delete the oldest old ReplicaSets beyond {@code
   * revisionHistoryLimit}, but only those scaled to zero and settled.
   */
  void cleanupDeployment(List<ReplicaSet> old) {
    Integer limit = s.d.getSpec().getRevisionHistoryLimit();
    if (limit == null) {
      return;
    }
    List<ReplicaSet> cleanable = new ArrayList<>();
    for (ReplicaSet rs : old) {
      if (rs != null && rs.getMetadata().getDeletionTimestamp() == null) {
        cleanable.add(rs);
      }
    }
    int diff = cleanable.size() - limit;
    if (diff <= 0) {
      return;
    }
    cleanable.sort(
        Comparator.comparingLong(DeploymentUtil::revision)
            .thenComparing(DeploymentUtil.BY_CREATION));
    for (int i = 0; i < diff; i++) {
      ReplicaSet rs = cleanable.get(i);
      long gen = rs.getMetadata().getGeneration() == null ? 0 : rs.getMetadata().getGeneration();
      long observed =
          rs.getStatus() == null || rs.getStatus().getObservedGeneration() == null
              ? 0
              : rs.getStatus().getObservedGeneration();
      int statusReplicas = rs.getStatus() == null ? 0 : nz(rs.getStatus().getReplicas());
      if (statusReplicas != 0 || replicas(rs) != 0 || gen > observed) {
        continue;
      }
      s.ctx
          .logger()
          .v(4)
          .info("Trying to cleanup replica set", "replicaSet", rs.getMetadata().getName());
      try {
        s.deps
            .client()
            .apps()
            .replicaSets()
            .inNamespace(rs.getMetadata().getNamespace())
            .withName(rs.getMetadata().getName())
            .delete();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e;
        }
      }
    }
  }

  private static int nz(Integer i) {
    return i == null ? 0 : i;
  }
}
