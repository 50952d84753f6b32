package io.jdra.scheduler.framework;

import io.jdra.runtime.Ctx;
import java.util.List;
import java.util.Set;

/**
 * Runs once per attempt before Filter, on the scheduling thread: checks the pod as a whole and
 * computes what Filter needs into the CycleState. Returning {@link Status#skip()} skips this
 * plugin's Filter for the pod. A rejection fails the attempt for every node.
 */
public interface PreFilterPlugin extends Plugin {
  /** The status, plus optionally the only nodes worth filtering. */
  record Result(Status status, Set<String> nodeNames) {
    public static Result of(Status s) {
      return new Result(s, null);
    }
  }

  Result preFilter(Ctx ctx, CycleState state, PodInfo pod, List<NodeInfo> nodes);
}
