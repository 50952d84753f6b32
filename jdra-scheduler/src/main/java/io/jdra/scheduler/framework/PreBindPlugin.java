package io.jdra.scheduler.framework;

import io.jdra.runtime.Ctx;

/**
 * Runs on a binding thread before Bind: writes what must exist before the pod is bound (claim
 * allocations). May call the API server and block; a failure makes the scheduler Unreserve and
 * requeue the pod.
 */
public interface PreBindPlugin extends Plugin {
  /** Skip when there is nothing to do for this pod (no API calls will be made). */
  default Status preBindPreFlight(Ctx ctx, CycleState state, PodInfo pod, String nodeName) {
    return Status.success();
  }

  Status preBind(Ctx ctx, CycleState state, PodInfo pod, String nodeName);
}
