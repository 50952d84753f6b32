package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/** What {@link Allocator#allocate} found: one result per claim, or why the node does not fit. */
public sealed interface AllocationOutcome {

  /**
   * Every claim got devices; {@code results().get(i)} belongs to the i-th claim. The results may be
   * made when first asked for: a scheduler allocates on hundreds of nodes per pod and binds to one,
   * so building every node's AllocationResult objects was most of the cost of a successful call.
   */
  final class Allocated implements AllocationOutcome {
    private Supplier<List<AllocationResult>> build;
    private List<AllocationResult> results;

    public Allocated(List<AllocationResult> results) {
      this.results = List.copyOf(results);
    }

    /** With results made on first use; {@code build} must not fail. */
    public Allocated(Supplier<List<AllocationResult>> build) {
      this.build = Objects.requireNonNull(build, "build");
    }

    /** The results, one per claim; thread-safe, the same list on every call. */
    public synchronized List<AllocationResult> results() {
      if (results == null) {
        results = List.copyOf(build.get());
        build = null;
      }
      return results;
    }

    @Override
    public String toString() {
      return "Allocated[" + results() + "]";
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
