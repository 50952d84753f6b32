package io.jdra.scheduler.framework;

import io.jdra.runtime.Ctx;
import java.util.Map;

/**
 * Runs when no node passed Filter, on the scheduling thread, to make room for a later attempt
 * (preemption upstream; DynamicResources deallocates a claim). Unschedulable means "nothing done".
 */
public interface PostFilterPlugin extends Plugin {
  Status postFilter(Ctx ctx, CycleState state, PodInfo pod, Map<String, Status> filteredNodes);
}
