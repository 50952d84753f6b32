package io.jdra.scheduler.plugins.nodeports;

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

/**
 * Host ports (upstream NodePorts): a port and protocol used on the node conflict when either side
 * binds all addresses (0.0.0.0) or both bind the same address.
 */
public final class NodePorts implements FilterPlugin, EnqueueExtensions {
  public static final String NAME = "NodePorts";
  public static final String ERR_REASON =
      "node(s) didn't have free ports for the requested pod ports";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node) {
    if (pod.hostPorts().isEmpty()) {
      return null;
    }
    for (PodInfo other : node.pods()) {
      for (PodInfo.HostPort a : other.hostPorts()) {
        for (PodInfo.HostPort b : pod.hostPorts()) {
          if (conflict(a, b)) {
            return Status.unschedulable(ERR_REASON);
          }
        }
      }
    }
    return null;
  }

  static boolean conflict(PodInfo.HostPort a, PodInfo.HostPort b) {
    return a.port() == b.port()
        && a.protocol().equals(b.protocol())
        && (a.ip().isEmpty() || b.ip().isEmpty() || a.ip().equals(b.ip()));
  }

  @Override
  public List<QueueingHint.EventWithHint> eventsToRegister() {
    return List.of(
        new QueueingHint.EventWithHint(
            ClusterEvent.of(ClusterEvent.EventResource.NODE, ClusterEvent.ADD, "NodeAdd"), null),
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.ASSIGNED_POD, ClusterEvent.DELETE, "AssignedPodDelete"),
            null));
  }
}
