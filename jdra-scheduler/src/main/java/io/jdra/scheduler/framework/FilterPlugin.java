package io.jdra.scheduler.framework;

import io.jdra.runtime.Ctx;

/**
 * Decides whether the pod fits one node. Called concurrently for many nodes of the same attempt:
 * reads the CycleState and the NodeInfo, writes only to state it synchronises itself. Returns
 * success, Unschedulable(AndUnresolvable) with the reason, or Error.
 */
public interface FilterPlugin extends Plugin {
  Status filter(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node);
}
