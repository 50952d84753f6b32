package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.jdra.allocator.AllocationOutcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One node's allocation results from Filter, in the order of {@code claimsToAllocate}: made on
 * first read, since Filter allocates on hundreds of nodes per pod and Reserve binds to one (Score
 * reads them only for claims with {@code firstAvailable}). Thread-safe.
 */
final class NodeResults {
  private final AllocationOutcome.Allocated outcome;
  private final int extendedPosition;
  private List<AllocationResult> results;

  /**
   * @param outcome what the allocator found for the claims it was given
   * @param extendedPosition where the extended-resource claim, which needs nothing on this node and
   *     was not given to the allocator, goes (as null), or -1
   */
  NodeResults(AllocationOutcome.Allocated outcome, int extendedPosition) {
    this.outcome = outcome;
    this.extendedPosition = extendedPosition;
  }

  /** The results; null for the extended-resource claim that needs nothing here. */
  synchronized List<AllocationResult> get() {
    if (results == null) {
      List<AllocationResult> r = new ArrayList<>(outcome.results());
      if (extendedPosition >= 0) {
        r.add(extendedPosition, null);
      }
      results = Collections.unmodifiableList(r);
    }
    return results;
  }
}
