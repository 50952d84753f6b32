package io.jdra.scheduler.plugins.nodename;

import io.jdra.runtime.Ctx;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.EnqueueExtensions;
import io.jdra.scheduler.framework.FilterPlugin;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.QueueingHint;
import io.jdra.scheduler.framework.Status;
import java.util.List;

/** A pod that names a node ({@code spec.nodeName}) fits only that node (upstream NodeName). */
public final class NodeName implements FilterPlugin, EnqueueExtensions {
  public static final String NAME = "NodeName";
  public static final String ERR_REASON = "node(s) didn't match the requested node name";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node) {
    String want = pod.pod().getSpec().getNodeName();
    if (want == null || want.isEmpty() || want.equals(node.name())) {
      return null;
    }
    return Status.unresolvable(ERR_REASON);
  }

  @Override
  public List<QueueingHint.EventWithHint> eventsToRegister() {
    return List.of(
        new QueueingHint.EventWithHint(
            ClusterEvent.of(ClusterEvent.EventResource.NODE, ClusterEvent.ADD, "NodeAdd"), null));
  }
}
