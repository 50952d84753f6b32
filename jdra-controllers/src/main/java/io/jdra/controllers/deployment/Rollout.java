package io.jdra.controllers.deployment;

import static io.jdra.controllers.deployment.DeploymentUtil.available;
import static io.jdra.controllers.deployment.DeploymentUtil.filterActive;
import static io.jdra.controllers.deployment.DeploymentUtil.replicas;
import static io.jdra.controllers.deployment.DeploymentUtil.withNew;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.jdra.controllers.controllerutil.PodUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The two rollout strategies (upstream's {@code rolling.go} and {@code recreate.go}). Each step
 * either scales something and reports progress, or finds the rollout done and cleans up history.
 */
final class Rollout {
  private final SyncDeployment s;

  Rollout(SyncDeployment s) {
    this.s = s;
  }

  /**
   * {@code RollingUpdate}: grow the new ReplicaSet up to {@code replicas + maxSurge} pods in all,
   * shrink old ones while at least {@code replicas - maxUnavailable} pods stay available.
   */
  void rolling(List<ReplicaSet> rsList) {
    SyncDeployment.NewAndOld rss = s.allReplicaSetsAndSyncRevision(rsList, true);
    ReplicaSet newRs = rss.newRs();
    List<ReplicaSet> old = new ArrayList<>(rss.old());
    List<ReplicaSet> all = withNew(old, newRs);
    ReplicaSet scaledNew = reconcileNewReplicaSet(all, newRs);
    if (scaledNew != newRs) {
      s.statuses.syncRolloutStatus(withNew(old, scaledNew), scaledNew);
      return;
    }
    if (reconcileOldReplicaSets(all, old, newRs)) {
      s.statuses.syncRolloutStatus(withNew(old, newRs), newRs);
      return;
    }
    if (DeploymentUtil.deploymentComplete(s.d, s.d.getStatus())) {
      s.rsWriter.cleanupDeployment(old);
    }
    s.statuses.syncRolloutStatus(all, newRs);
  }

  /** Upstream's {@code reconcileNewReplicaSet}; returns the new ReplicaSet as written. */
  private ReplicaSet reconcileNewReplicaSet(List<ReplicaSet> all, ReplicaSet newRs) {
    if (replicas(newRs) == replicas(s.d)) {
      return newRs;
    }
    if (replicas(newRs) > replicas(s.d)) {
      return s.rsWriter.scaleAndRecordEvent(newRs, replicas(s.d));
    }
    return s.rsWriter.scaleAndRecordEvent(newRs, DeploymentUtil.newRsNewReplicas(s.d, all, newRs));
  }

  /**
   * Upstream's {@code reconcileOldReplicaSets}: first scale down old pods that are not available
   * anyway, then old available ones down to the availability floor. {@code old} is updated with
   * what was written; true when anything was scaled down.
   */
  private boolean reconcileOldReplicaSets(
      List<ReplicaSet> all, List<ReplicaSet> old, ReplicaSet newRs) {
    List<ReplicaSet> activeOld = filterActive(old);
    if (DeploymentUtil.replicaCount(activeOld) == 0) {
      return false;
    }
    int allPods = DeploymentUtil.replicaCount(all);
    int minAvailable = replicas(s.d) - DeploymentUtil.maxUnavailable(s.d);
    int newUnavailable = replicas(newRs) - available(newRs);
    int maxScaledDown = allPods - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) {
      return false;
    }
    int cleaned = cleanupUnhealthyReplicas(activeOld, maxScaledDown);
    int scaledDown = scaleDownOldForRollingUpdate(withNew(activeOld, newRs), activeOld);
    activeOld.forEach(rs -> ReplicaSetWriter.replaceIn(old, rs));
    return cleaned + scaledDown > 0;
  }

  /** Upstream's {@code cleanupUnhealthyReplicas}: oldest first, only unavailable pods. */
  private int cleanupUnhealthyReplicas(List<ReplicaSet> old, int maxCleanup) {
    old.sort(DeploymentUtil.BY_CREATION);
    int total = 0;
    for (int i = 0; i < old.size() && total < maxCleanup; i++) {
      ReplicaSet rs = old.get(i);
      if (replicas(rs) == 0 || replicas(rs) == available(rs)) {
        continue;
      }
      int down = Math.min(maxCleanup - total, replicas(rs) - available(rs));
      old.set(i, s.rsWriter.scaleAndRecordEvent(rs, replicas(rs) - down));
      total += down;
    }
    return total;
  }

  /** Upstream's {@code scaleDownOldReplicaSetsForRollingUpdate}. */
  private int scaleDownOldForRollingUpdate(List<ReplicaSet> all, List<ReplicaSet> old) {
    int minAvailable = replicas(s.d) - DeploymentUtil.maxUnavailable(s.d);
    int availablePods = DeploymentUtil.availableReplicaCount(all);
    if (availablePods <= minAvailable) {
      return 0;
    }
    old.sort(DeploymentUtil.BY_CREATION);
    int total = 0;
    int target = availablePods - minAvailable;
    for (int i = 0; i < old.size() && total < target; i++) {
      ReplicaSet rs = old.get(i);
      if (replicas(rs) == 0) {
        continue;
      }
      int down = Math.min(replicas(rs), target - total);
      old.set(i, s.rsWriter.scaleAndRecordEvent(rs, replicas(rs) - down));
      total += down;
    }
    return total;
  }

  /**
   * {@code Recreate}: scale every old ReplicaSet to zero, wait until none of their pods runs, then
   * create (or scale up) the new one.
   */
  void recreate(List<ReplicaSet> rsList, Map<String, List<Pod>> podMap) {
    SyncDeployment.NewAndOld rss = s.allReplicaSetsAndSyncRevision(rsList, false);
    ReplicaSet newRs = rss.newRs();
    List<ReplicaSet> old = new ArrayList<>(rss.old());
    boolean scaledDown = false;
    for (ReplicaSet rs : filterActive(old)) {
      ReplicaSetWriter.replaceIn(old, s.rsWriter.scaleAndRecordEvent(rs, 0));
      scaledDown = true;
    }
    if (scaledDown || oldPodsRunning(newRs, old, podMap)) {
      s.statuses.syncRolloutStatus(withNew(old, newRs), newRs);
      return;
    }
    if (newRs == null) {
      rss = s.allReplicaSetsAndSyncRevision(rsList, true);
      newRs = rss.newRs();
      old = new ArrayList<>(rss.old());
    }
    newRs = s.rsWriter.scaleAndRecordEvent(newRs, replicas(s.d));
    if (DeploymentUtil.deploymentComplete(s.d, s.d.getStatus())) {
      s.rsWriter.cleanupDeployment(old);
    }
    s.statuses.syncRolloutStatus(withNew(old, newRs), newRs);
  }

  /** Upstream's {@code oldPodsRunning}: an old ReplicaSet reports pods, or one is not finished. */
  static boolean oldPodsRunning(
      ReplicaSet newRs, List<ReplicaSet> old, Map<String, List<Pod>> podMap) {
    if (DeploymentUtil.actualReplicaCount(old) > 0) {
      return true;
    }
    for (Map.Entry<String, List<Pod>> e : podMap.entrySet()) {
      if (newRs != null && newRs.getMetadata().getUid().equals(e.getKey())) {
        continue;
      }
      for (Pod p : e.getValue()) {
        if (!PodUtil.isPodTerminal(p)) {
          return true;
        }
      }
    }
    return false;
  }
}
