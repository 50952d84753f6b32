package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import java.util.List;

/** What {@link Allocator#allocate} found: one result per claim, or why the node does not fit. */
public sealed interface AllocationOutcome {

  /** Every claim got devices; {@code results.get(i)} belongs to the i-th claim. */
  record Allocated(List<AllocationResult> results) implements AllocationOutcome {
    public Allocated {
      results = List.copyOf(results);
    }
  }

  /** The claims cannot be allocated together on this node. */
  record Unschedulable(Explanation explanation) implements AllocationOutcome {}

  /** Whether this is {@link Allocated}. */
  default boolean allocated() {
    return this instanceof Allocated;
  }
}
