package io.jdra.scheduler.plugins.schedulinggates;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.EnqueueExtensions;
import io.jdra.scheduler.framework.PreEnqueuePlugin;
import io.jdra.scheduler.framework.QueueingHint;
import io.jdra.scheduler.framework.Status;
import java.util.List;

/** Pods with {@code spec.schedulingGates} wait until every gate is removed (upstream plugin). */
public final class SchedulingGates implements PreEnqueuePlugin, EnqueueExtensions {
  public static final String NAME = "SchedulingGates";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status preEnqueue(Pod pod) {
    List<PodSchedulingGate> gates = pod.getSpec().getSchedulingGates();
    if (gates == null || gates.isEmpty()) {
      return null;
    }
    List<String> names = gates.stream().map(PodSchedulingGate::getName).toList();
    return Status.unresolvable("waiting for scheduling gates: " + names);
  }

  @Override
  public List<QueueingHint.EventWithHint> eventsToRegister() {
    return List.of(
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.TARGET_POD,
                ClusterEvent.UPDATE_POD_SCHEDULING_GATES_ELIMINATED,
                "PodSchedulingGatesEliminated"),
            null));
  }
}
