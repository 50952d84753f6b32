package io.jdra.scheduler.framework;

import io.jdra.runtime.Ctx;

/**
 * Reserve claims the chosen node's resources in the plugin's own state before binding starts, on
 * the scheduling thread; Unreserve undoes it when the attempt or the binding fails. Unreserve must
 * be idempotent and must tolerate a Reserve that never ran (it is called for every plugin).
 */
public interface ReservePlugin extends Plugin {
  Status reserve(Ctx ctx, CycleState state, PodInfo pod, String nodeName);

  void unreserve(Ctx ctx, CycleState state, PodInfo pod, String nodeName);
}
