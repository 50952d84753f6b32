package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocationOutcome;
import io.jdra.allocator.Explanation;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The outcomes one allocator found on node-independent pool views (see {@link Slices.Gathered}):
 * every node without slices of its own sees the same pools, so the same claims get the same devices
 * there, and the search runs once per allocator instead of once per node (a scheduler filters up to
 * hundreds of such nodes per pod with one allocator). The first caller searches, callers for other
 * nodes get its outcome (or its exception). Thread-safe; one instance per allocator.
 */
public final class SharedOutcomes {
  /** Distinct claim lists an allocator remembers; a scheduling cycle uses one or two. */
  private static final int MAX_ENTRIES = 16;

  /** A pool view and a claim list, both by identity (the objects are not changed). */
  private record Key(Slices.Gathered view, List<ResourceClaim> claims) {
    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Key k) || k.view != view || k.claims.size() != claims.size()) {
        return false;
      }
      for (int i = 0; i < claims.size(); i++) {
        if (k.claims.get(i) != claims.get(i)) {
          return false;
        }
      }
      return true;
    }

    @Override
    public int hashCode() {
      int h = System.identityHashCode(view);
      for (ResourceClaim c : claims) {
        h = 31 * h + System.identityHashCode(c);
      }
      return h;
    }
  }

  /** How to search when no outcome is known yet. */
  @FunctionalInterface
  interface Search {
    AllocationOutcome run() throws AllocationException;
  }

  /** What the search gave: an outcome, or the exception every node then gets. */
  private record Found(AllocationOutcome outcome, Exception failure, String node) {}

  private final ConcurrentHashMap<Key, Found> outcomes = new ConcurrentHashMap<>();

  /** The outcome for these claims on this view: searched now, or what another node's found. */
  AllocationOutcome get(
      Slices.Gathered view, List<ResourceClaim> claims, String nodeName, Search search)
      throws AllocationException {
    Key key = new Key(view, claims);
    Found found = outcomes.get(key);
    if (found == null) {
      found =
          outcomes.size() < MAX_ENTRIES
              // A concurrent caller for the same key waits for this search instead of repeating it.
              ? outcomes.computeIfAbsent(key, k -> searchNow(search, nodeName))
              : searchNow(search, nodeName);
    }
    if (found.failure() instanceof AllocationException e) {
      throw e;
    }
    if (found.failure() instanceof RuntimeException e) {
      throw e;
    }
    if (!found.node().equals(nodeName)
        && found.outcome() instanceof AllocationOutcome.Unschedulable u) {
      // Same reasons; the explanation names the node it is read for.
      return new AllocationOutcome.Unschedulable(() -> forNode(u.explanation(), nodeName));
    }
    return found.outcome();
  }

  private static Found searchNow(Search search, String nodeName) {
    try {
      return new Found(search.run(), null, nodeName);
    } catch (AllocationException | RuntimeException e) {
      return new Found(null, e, nodeName);
    }
  }

  private static Explanation forNode(Explanation e, String nodeName) {
    return new Explanation(nodeName, e.claims(), e.notes());
  }
}
