package io.jdra.scheduler.plugins.nodeunschedulable;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.jdra.runtime.Ctx;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.EnqueueExtensions;
import io.jdra.scheduler.framework.FilterPlugin;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.QueueingHint;
import io.jdra.scheduler.framework.Status;
import io.jdra.scheduler.plugins.tainttoleration.Tolerations;
import java.util.List;

/**
 * Cordoned nodes ({@code spec.unschedulable}) take only pods that tolerate the {@code
 * node.kubernetes.io/unschedulable:NoSchedule} taint (upstream NodeUnschedulable).
 */
public final class NodeUnschedulable implements FilterPlugin, EnqueueExtensions {
  public static final String NAME = "NodeUnschedulable";
  public static final String ERR_REASON_UNKNOWN_CONDITION = "node(s) had unknown conditions";
  public static final String ERR_REASON_UNSCHEDULABLE = "node(s) were unschedulable";
  static final Taint UNSCHEDULABLE_TAINT =
      new Taint("NoSchedule", "node.kubernetes.io/unschedulable", null, null);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node) {
    if (node.node() == null) {
      return Status.unresolvable(ERR_REASON_UNKNOWN_CONDITION);
    }
    if (!node.unschedulable()) {
      return null;
    }
    if (Tolerations.tolerates(pod.pod().getSpec().getTolerations(), UNSCHEDULABLE_TAINT)) {
      return null;
    }
    return Status.unresolvable(ERR_REASON_UNSCHEDULABLE);
  }

  @Override
  public List<QueueingHint.EventWithHint> eventsToRegister() {
    return List.of(
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.NODE,
                ClusterEvent.ADD | ClusterEvent.UPDATE_NODE_TAINT | ClusterEvent.UPDATE_OTHER,
                "NodeChange"),
            (pod, o, n) -> {
              Node node = (Node) n;
              return node.getSpec() == null
                      || !Boolean.TRUE.equals(node.getSpec().getUnschedulable())
                  ? QueueingHint.QUEUE
                  : QueueingHint.SKIP;
            }),
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.TARGET_POD,
                ClusterEvent.UPDATE_POD_TOLERATIONS,
                "PodTolerations"),
            null));
  }
}
