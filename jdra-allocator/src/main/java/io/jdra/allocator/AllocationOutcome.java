package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/** What {@link Allocator#allocate} found: one result per claim, or why the node does not fit. */
public sealed interface AllocationOutcome {

  /** Every claim got devices; {@code results.get(i)} belongs to the i-th claim. */
  record Allocated(List<AllocationResult> results) implements AllocationOutcome {
    public Allocated {
      results = List.copyOf(results);
    }
  }

  /**
   * The claims cannot be allocated together on this node. The explanation is worked out when first
   * asked for (a scheduler that filters hundreds of nodes reads it for one), then kept.
   */
  final class Unschedulable implements AllocationOutcome {
    private Supplier<Explanation> explain;
    private Explanation explanation;

    public Unschedulable(Explanation explanation) {
      this.explanation = Objects.requireNonNull(explanation, "explanation");
    }

    /** With an explanation made on first use; {@code explain} must not fail. */
    public Unschedulable(Supplier<Explanation> explain) {
      this.explain = Objects.requireNonNull(explain, "explain");
    }

    /** Why the claims do not fit; thread-safe. */
    public synchronized Explanation explanation() {
      if (explanation == null) {
        explanation = explain.get();
        explain = null;
      }
      return explanation;
    }

    @Override
    public String toString() {
      return "Unschedulable[" + explanation() + "]";
    }
  }

  /** Whether this is {@link Allocated}. */
  default boolean allocated() {
    return this instanceof Allocated;
  }
}
