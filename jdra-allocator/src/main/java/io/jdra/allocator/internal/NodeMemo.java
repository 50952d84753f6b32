package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.allocator.AllocatedState;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocationOutcome;
import io.jdra.allocator.Deadline;
import io.jdra.allocator.NodeCache;
import java.util.List;
import java.util.Objects;

/**
 * The last outcome on one node, kept in its {@link NodeCache} and handed out again while nothing it
 * depends on changed. A scheduler allocates the same template's claims on hundreds of nodes per
 * pod, and between two visits to a node most nodes' pools did not change: each pod changes the
 * devices in use of the one node it binds to. An outcome depends on
 *
 * <ul>
 *   <li>the node's view: its pools, slices and devices, the node object, the slice index and its
 *       features and selector engine (the view is made by one index for one node object; {@link
 *       Slices#gather} hands out another view when any of these changed);
 *   <li>the devices in use in each of the view's pools, with their shares and consumed capacity and
 *       the counters left: the pool's device array for the search ({@link PoolInfo#devices}), which
 *       is made anew whenever the pool's map of devices in use changes and is kept while it stays
 *       the same object (those maps are immutable);
 *   <li>the claims' specs and the device classes they resolved to ({@link
 *       PreparedClaims.Signature}).
 * </ul>
 *
 * Nothing else is read by a search that does not fail with an error, except the claims' names and
 * UIDs, which only errors, explanations and share IDs use. So: errors are never kept (they are
 * raised again on every call); an outcome with share IDs (consumable capacity) is not kept, since
 * its IDs derive from the claims' UIDs; and a kept "does not fit" gives its explanation by running
 * the search again for the claims asked about, when the explanation is read. A kept allocation
 * builds new results from the kept search each time they are read. Views that serve every node
 * without slices of its own are left to {@link SharedOutcomes}.
 *
 * <p>With the system property {@code jdra.allocator.memoCheck=true} every outcome handed out again
 * is compared with a fresh allocation, and a difference fails the call.
 */
final class NodeMemo {
  static final boolean CHECK = Boolean.getBoolean("jdra.allocator.memoCheck");

  /**
   * A kept outcome and what it was found for; {@code search} is null for "does not fit". {@code
   * base} is the allocated state's base token when every pool of the view was in that base (not in
   * the overlay) at the time, with the pools' overlay bits: while a state has the same base and
   * none of those bits set, the pools' devices in use are still the same maps, which is found
   * without reading the view's pools (cold objects, one set per node and pod). Else null. The bits
   * are in {@code bits}, or, for a view of one pool, that pool's in {@code bit} ({@code bits}
   * null).
   */
  private record Entry(
      Slices.Gathered view,
      PreparedClaims.Signature signature,
      Dev[][] pools,
      Search search,
      Object base,
      int bit,
      int[] bits) {

    /**
     * Whether the devices in use of the view's pools are known to be unchanged in {@code state}.
     */
    boolean unchangedIn(AllocatedState state) {
      if (base == null) {
        return false;
      }
      if (bits == null) {
        return state.inBase(base, bit);
      }
      for (int bit : bits) {
        if (!state.inBase(base, bit)) {
          return false;
        }
      }
      return true;
    }
  }

  private NodeMemo() {}

  static AllocationOutcome allocate(
      Allocation.Inputs in,
      NodeCache cache,
      Node node,
      List<ResourceClaim> claims,
      Deadline deadline,
      Slices.Gathered view,
      PreparedClaims prepared)
      throws AllocationException {
    AllocatedState state = in.state();
    PreparedClaims.Signature signature = prepared.signature();
    Dev[][] pools = null;
    if (cache.memo() instanceof Entry e && e.view() == view && e.signature().sameAs(signature)) {
      if (e.unchangedIn(state)) {
        pools = e.pools();
      } else {
        pools = poolDevices(view, state, in.features().partitionableDevices());
        if (!same(e.pools(), pools)) {
          return searchAndKeep(in, cache, node, claims, deadline, view, prepared, pools);
        }
        // The same devices in use under a new base (made every few dozen changes): kept with
        // this base, so that the next calls find them unchanged without the pools again.
        cache.memo(entry(view, e.signature(), pools, e.search(), state));
      }
      cache.countHit();
      AllocationOutcome kept = again(e, in, node, claims, deadline, prepared, pools);
      if (CHECK) {
        check(kept, in, node, claims, deadline, view, prepared, pools);
      }
      return kept;
    }
    pools = poolDevices(view, state, in.features().partitionableDevices());
    return searchAndKeep(in, cache, node, claims, deadline, view, prepared, pools);
  }

  /** A fresh allocation, kept unless it has share IDs (errors are thrown, never kept). */
  private static AllocationOutcome searchAndKeep(
      Allocation.Inputs in,
      NodeCache cache,
      Node node,
      List<ResourceClaim> claims,
      Deadline deadline,
      Slices.Gathered view,
      PreparedClaims prepared,
      Dev[][] pools)
      throws AllocationException {
    Search search =
        Allocation.search(in, node, claims, deadline, view, prepared, merged(view, pools));
    AllocationOutcome outcome = Allocation.outcome(in, node, claims, deadline, view, search);
    if (!search.done || !hasShares(search)) {
      cache.memo(entry(view, prepared.signature(), pools, search.done ? search : null, in.state()));
    }
    return outcome;
  }

  /** An entry with {@code state}'s base when all the view's pools are in it. */
  private static Entry entry(
      Slices.Gathered view,
      PreparedClaims.Signature signature,
      Dev[][] pools,
      Search search,
      AllocatedState state) {
    PoolInfo[] runs = view.runPools();
    int[] bits = new int[runs.length];
    Object base = state.baseToken();
    for (int k = 0; k < runs.length; k++) {
      bits[k] = AllocatedState.overlayBit(runs[k].key);
      if (!state.inBase(base, bits[k])) {
        base = null;
      }
    }
    if (base == null) {
      return new Entry(view, signature, pools, search, null, 0, null);
    }
    // A view of one pool (the common case) keeps its bit in the entry: no array to read per call.
    return bits.length == 1
        ? new Entry(view, signature, pools, search, base, bits[0], null)
        : new Entry(view, signature, pools, search, base, 0, bits);
  }

  /** The kept outcome, for these claims. */
  private static AllocationOutcome again(
      Entry e,
      Allocation.Inputs in,
      Node node,
      List<ResourceClaim> claims,
      Deadline deadline,
      PreparedClaims prepared,
      Dev[][] pools) {
    if (e.search() != null) {
      Search kept = e.search();
      return new AllocationOutcome.Allocated(() -> Results.build(kept));
    }
    Slices.Gathered view = e.view();
    return new AllocationOutcome.Unschedulable(
        () -> explainAgain(in, node, claims, deadline, view, prepared, pools));
  }

  /**
   * The explanation a fresh allocation gives: its search finds no solution again (without a
   * deadline, as the kept outcome's search found none in time), then explains with the deadline.
   */
  private static io.jdra.allocator.Explanation explainAgain(
      Allocation.Inputs in,
      Node node,
      List<ResourceClaim> claims,
      Deadline deadline,
      Slices.Gathered view,
      PreparedClaims prepared,
      Dev[][] pools) {
    try {
      Search search =
          Allocation.search(in, node, claims, Deadline.none(), view, prepared, merged(view, pools));
      if (Allocation.outcome(in, node, claims, deadline, view, search)
          instanceof AllocationOutcome.Unschedulable u) {
        return u.explanation();
      }
      throw new IllegalStateException("a kept 'does not fit' now fits on " + view.node());
    } catch (AllocationException e) {
      throw new IllegalStateException("a kept 'does not fit' now fails on " + view.node(), e);
    }
  }

  /** Each run's pool's device array, in the view's order (see {@link Allocation#devices}). */
  private static Dev[][] poolDevices(
      Slices.Gathered view, AllocatedState state, boolean partitionable) {
    PoolInfo[] runs = view.runPools();
    Dev[][] out = new Dev[runs.length][];
    for (int k = 0; k < runs.length; k++) {
      out[k] = runs[k].devices(state, view, k, partitionable);
    }
    return out;
  }

  /** The search's device array: the only pool's, or the pools' arrays one after the other. */
  private static Dev[] merged(Slices.Gathered view, Dev[][] pools) {
    if (pools.length == 1) {
      return pools[0];
    }
    Dev[] out = new Dev[view.devices().length];
    int[] starts = view.runStarts();
    for (int k = 0; k < pools.length; k++) {
      System.arraycopy(pools[k], 0, out, starts[k], pools[k].length);
    }
    return out;
  }

  private static boolean same(Dev[][] a, Dev[][] b) {
    if (a.length != b.length) {
      return false;
    }
    for (int k = 0; k < a.length; k++) {
      if (a[k] != b[k]) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasShares(Search search) {
    for (List<Pick> picks : search.results) {
      for (Pick p : picks) {
        if (p.shareId() != null) {
          return true;
        }
      }
    }
    return false;
  }

  /** The memo check: a fresh allocation must give what was handed out again. */
  private static void check(
      AllocationOutcome kept,
      Allocation.Inputs in,
      Node node,
      List<ResourceClaim> claims,
      Deadline deadline,
      Slices.Gathered view,
      PreparedClaims prepared,
      Dev[][] pools)
      throws AllocationException {
    Search search =
        Allocation.search(in, node, claims, deadline, view, prepared, merged(view, pools));
    AllocationOutcome fresh = Allocation.outcome(in, node, claims, deadline, view, search);
    boolean equal =
        kept instanceof AllocationOutcome.Allocated ka
                && fresh instanceof AllocationOutcome.Allocated fa
                && ka.results().equals(fa.results())
            || kept instanceof AllocationOutcome.Unschedulable ku
                && fresh instanceof AllocationOutcome.Unschedulable fu
                && Objects.equals(ku.explanation(), fu.explanation());
    if (!equal) {
      throw new IllegalStateException(
          "kept outcome " + kept + " differs from a fresh one " + fresh + " on " + view.node());
    }
  }
}
