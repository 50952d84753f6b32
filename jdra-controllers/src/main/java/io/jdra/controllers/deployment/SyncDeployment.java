package io.jdra.controllers.deployment;

import static io.jdra.controllers.deployment.DeploymentUtil.filterActive;
import static io.jdra.controllers.deployment.DeploymentUtil.replicas;
import static io.jdra.controllers.deployment.DeploymentUtil.withNew;
import static io.jdra.runtime.logging.Klog.kobj;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.jdra.controllers.controllerutil.ControllerRefManager;
import io.jdra.controllers.controllerutil.LabelSelectors;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.QueueWorkers;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One sync of one Deployment (upstream's {@code syncDeployment} with {@code sync}, {@code
 * rolloutRolling}, {@code rolloutRecreate} and their helpers). Holds the Deployment as last
 * written, so later writes of the same sync carry the current resourceVersion. Used by one thread.
 */
final class SyncDeployment {
  final DeploymentController.Deps deps;
  final RateLimitingQueue<String> queue;
  final Ctx ctx;

  /** The Deployment being synced: a private copy, replaced by each write's result. */
  Deployment d;

  final ReplicaSetWriter rsWriter;
  final DeploymentStatuses statuses;

  SyncDeployment(DeploymentController.Deps deps, RateLimitingQueue<String> queue, Ctx ctx) {
    this.deps = deps;
    this.queue = queue;
    this.ctx = ctx;
    this.rsWriter = new ReplicaSetWriter(this);
    this.statuses = new DeploymentStatuses(this);
  }

  void sync(String key) {
    String[] nsName = QueueWorkers.splitKey(key);
    Optional<Deployment> cached = deps.dLister().get(nsName[0], nsName[1]);
    if (cached.isEmpty()) {
      ctx.logger().v(2).info("Deployment has been deleted", "deployment", key);
      return;
    }
    d = new DeploymentBuilder(cached.get()).build();
    if (d.getStatus() == null) {
      d.setStatus(new DeploymentStatus());
    }
    if (LabelSelectors.isEmpty(d.getSpec().getSelector())) {
      selectingAll();
      return;
    }
    List<ReplicaSet> rsList = replicaSetsForDeployment();
    if (d.getMetadata().getDeletionTimestamp() != null) {
      syncStatusOnly(rsList);
      return;
    }
    checkPausedConditions();
    if (Boolean.TRUE.equals(d.getSpec().getPaused()) || isScalingEvent(rsList)) {
      syncScale(rsList);
      return;
    }
    if (DeploymentUtil.isRecreate(d)) {
      new Rollout(this).recreate(rsList, podsByReplicaSet(rsList));
    } else {
      new Rollout(this).rolling(rsList);
    }
  }

  /** An empty selector would select every pod: refuse, as upstream. */
  private void selectingAll() {
    deps.recorder()
        .eventf(
            d,
            null,
            EventRecorder.WARNING,
            "SelectingAll",
            "Sync",
            "This deployment is selecting all pods. A non-empty selector is required.");
    Long gen = d.getMetadata().getGeneration();
    Long observed = d.getStatus().getObservedGeneration();
    if (gen != null && (observed == null || observed < gen)) {
      d.getStatus().setObservedGeneration(gen);
      updateStatus();
    }
  }

  /** Upstream's {@code getReplicaSetsForDeployment}: claim by selector and controller ref. */
  List<ReplicaSet> replicaSetsForDeployment() {
    String ns = d.getMetadata().getNamespace();
    Deployment owner = d;
    ControllerRefManager<ReplicaSet> m =
        new ControllerRefManager<>(
            owner,
            rs ->
                LabelSelectors.matches(owner.getSpec().getSelector(), rs.getMetadata().getLabels()),
            () ->
                deps.client()
                    .apps()
                    .deployments()
                    .inNamespace(ns)
                    .withName(owner.getMetadata().getName())
                    .get(),
            (rs, patch) ->
                deps.client()
                    .apps()
                    .replicaSets()
                    .inNamespace(ns)
                    .withName(rs.getMetadata().getName())
                    .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch));
    ControllerRefManager.Claimed<ReplicaSet> claimed = m.claim(deps.rsLister().list(ns));
    if (claimed.error() != null) {
      throw claimed.error();
    }
    return claimed.objects();
  }

  /** Upstream's {@code getPodMapForDeployment}: the Deployment's pods by ReplicaSet UID. */
  Map<String, List<Pod>> podsByReplicaSet(List<ReplicaSet> rsList) {
    Map<String, List<Pod>> byRs = new java.util.HashMap<>();
    for (ReplicaSet rs : rsList) {
      byRs.put(rs.getMetadata().getUid(), new ArrayList<>());
    }
    for (Pod p : deps.podLister().list(d.getMetadata().getNamespace())) {
      if (!LabelSelectors.matches(d.getSpec().getSelector(), p.getMetadata().getLabels())) {
        continue;
      }
      OwnerReference ref = OwnerRefs.controllerOf(p);
      if (ref != null && byRs.containsKey(ref.getUid())) {
        byRs.get(ref.getUid()).add(p);
      }
    }
    return byRs;
  }

  private void syncStatusOnly(List<ReplicaSet> rsList) {
    NewAndOld rss = allReplicaSetsAndSyncRevision(rsList, false);
    statuses.syncDeploymentStatus(withNew(rss.old(), rss.newRs()), rss.newRs());
  }

  /** Upstream's {@code sync}: scaling (and history cleanup while paused), then the status. */
  void syncScale(List<ReplicaSet> rsList) {
    NewAndOld rss = allReplicaSetsAndSyncRevision(rsList, false);
    List<ReplicaSet> old = rsWriter.scale(rss.newRs(), rss.old());
    if (Boolean.TRUE.equals(d.getSpec().getPaused())) {
      rsWriter.cleanupDeployment(old);
    }
    statuses.syncDeploymentStatus(withNew(old, rss.newRs()), rss.newRs());
  }

  /**
   * Upstream's {@code isScalingEvent}: an active ReplicaSet was made for another replica count than
   * the Deployment's, so only sizes change, no rollout step.
   */
  boolean isScalingEvent(List<ReplicaSet> rsList) {
    NewAndOld rss = allReplicaSetsAndSyncRevision(rsList, false);
    for (ReplicaSet rs : filterActive(withNew(rss.old(), rss.newRs()))) {
      Integer desired =
          DeploymentUtil.annotationInt(rs, DeploymentUtil.DESIRED_REPLICAS_ANNOTATION);
      if (desired != null && desired != replicas(d)) {
        return true;
      }
    }
    return false;
  }

  /** Upstream's {@code checkPausedConditions}: Progressing Unknown while paused or resumed. */
  private void checkPausedConditions() {
    if (!DeploymentUtil.hasProgressDeadline(d)) {
      return;
    }
    DeploymentCondition cond = DeploymentUtil.condition(d.getStatus(), DeploymentUtil.PROGRESSING);
    if (cond != null && DeploymentUtil.TIMED_OUT_REASON.equals(cond.getReason())) {
      return; // a timed-out rollout stays reported as such
    }
    boolean pausedCond =
        cond != null && DeploymentUtil.PAUSED_DEPLOY_REASON.equals(cond.getReason());
    boolean paused = Boolean.TRUE.equals(d.getSpec().getPaused());
    String reason;
    String message;
    if (paused && !pausedCond) {
      reason = DeploymentUtil.PAUSED_DEPLOY_REASON;
      message = "Deployment is paused";
    } else if (!paused && pausedCond) {
      reason = DeploymentUtil.RESUMED_DEPLOY_REASON;
      message = "Deployment is resumed";
    } else {
      return;
    }
    DeploymentUtil.setCondition(
        d.getStatus(),
        DeploymentUtil.newCondition(
            DeploymentUtil.PROGRESSING, "Unknown", reason, message, deps.clock().now()));
    updateStatus();
  }

  record NewAndOld(ReplicaSet newRs, List<ReplicaSet> old) {}

  /** Upstream's {@code getAllReplicaSetsAndSyncRevision}. */
  NewAndOld allReplicaSetsAndSyncRevision(List<ReplicaSet> rsList, boolean createIfNotExisted) {
    List<ReplicaSet> old = DeploymentUtil.findOldReplicaSets(d, rsList);
    ReplicaSet newRs = rsWriter.newReplicaSet(rsList, old, createIfNotExisted);
    return new NewAndOld(newRs, old);
  }

  // ---- writes of the Deployment ----

  /** Writes {@code d.status}; {@code d} becomes the result. */
  void updateStatus() {
    d =
        deps.client()
            .apps()
            .deployments()
            .inNamespace(d.getMetadata().getNamespace())
            .resource(d)
            .updateStatus();
  }

  /**
   * Upstream's {@code SetDeploymentRevision}, written at once: the revision annotation of the
   * Deployment. (Upstream sends it with a status update, which kube-apiserver's Deployment status
   * strategy lets through; a merge patch of the annotation has the same effect on any server.)
   */
  void setRevision(String revision) {
    Map<String, String> a = d.getMetadata().getAnnotations();
    if (a != null && Objects.equals(a.get(DeploymentUtil.REVISION_ANNOTATION), revision)) {
      return;
    }
    DeploymentStatus status = d.getStatus();
    d =
        deps.client()
            .apps()
            .deployments()
            .inNamespace(d.getMetadata().getNamespace())
            .withName(d.getMetadata().getName())
            .patch(
                PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"annotations\":{\""
                    + DeploymentUtil.REVISION_ANNOTATION
                    + "\":\""
                    + revision
                    + "\"}}}");
    d.setStatus(status); // keep the status this sync is building
    ctx.logger().v(4).info("Updated revision", "deployment", kobj(d), "revision", revision);
  }
}
