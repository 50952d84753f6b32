package io.jdra.scheduler.plugins.tainttoleration;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.jdra.runtime.Ctx;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.EnqueueExtensions;
import io.jdra.scheduler.framework.FilterPlugin;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.QueueingHint;
import io.jdra.scheduler.framework.ScorePlugin;
import io.jdra.scheduler.framework.Status;
import java.util.List;

/**
 * Node taints (upstream TaintToleration): NoSchedule and NoExecute taints the pod does not tolerate
 * rule the node out; PreferNoSchedule taints the pod does not tolerate lower the score.
 */
public final class TaintToleration implements FilterPlugin, ScorePlugin, EnqueueExtensions {
  public static final String NAME = "TaintToleration";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node) {
    List<Taint> taints = node.taints();
    if (taints.isEmpty()) {
      return null;
    }
    List<Toleration> tols = pod.pod().getSpec().getTolerations();
    for (Taint t : taints) {
      if (!"NoSchedule".equals(t.getEffect()) && !"NoExecute".equals(t.getEffect())) {
        continue;
      }
      if (!Tolerations.tolerates(tols, t)) {
        return Status.unresolvable(
            "node(s) had untolerated taint {" + t.getKey() + ": " + nz(t.getValue()) + "}");
      }
    }
    return null;
  }

  @Override
  public long score(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node) {
    List<Taint> taints = node.taints();
    if (taints.isEmpty()) {
      return 0;
    }
    List<Toleration> prefer = new java.util.ArrayList<>();
    if (pod.pod().getSpec().getTolerations() != null) {
      for (Toleration t : pod.pod().getSpec().getTolerations()) {
        if (t.getEffect() == null
            || t.getEffect().isEmpty()
            || "PreferNoSchedule".equals(t.getEffect())) {
          prefer.add(t);
        }
      }
    }
    long count = 0;
    for (Taint t : taints) {
      if ("PreferNoSchedule".equals(t.getEffect()) && !Tolerations.tolerates(prefer, t)) {
        count++;
      }
    }
    return count;
  }

  @Override
  public void normalizeScore(CycleState state, PodInfo pod, long[] scores) {
    ScorePlugin.defaultNormalize(scores, true);
  }

  @Override
  public List<QueueingHint.EventWithHint> eventsToRegister() {
    return List.of(
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.NODE,
                ClusterEvent.ADD | ClusterEvent.UPDATE_NODE_TAINT,
                "NodeTaintChange"),
            null),
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.TARGET_POD,
                ClusterEvent.UPDATE_POD_TOLERATIONS,
                "PodTolerations"),
            null));
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }
}
