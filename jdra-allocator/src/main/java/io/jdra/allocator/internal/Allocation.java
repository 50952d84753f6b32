package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.AllocatedState;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocationOutcome;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.allocator.Deadline;
import io.jdra.allocator.DeviceClassLister;
import io.jdra.allocator.Explanation;
import io.jdra.allocator.NodeCache;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code allocate} call: gather pools, validate requests (upstream's errors, in upstream's
 * order), search, build results or explain. Phase one is upstream's plain search with a small
 * budget; if that is spent, phase two repeats the same search with sound pruning, which finds the
 * same first solution or proves there is none.
 */
public final class Allocation {
  /** allocateOne calls of the plain search before pruning starts. */
  public static final long DEFAULT_BUDGET = 2_000;

  private Allocation() {}

  /** Everything one allocation needs; slices are indexed by node once, as upstream does. */
  public record Inputs(
      AllocatorFeatures features,
      AllocatedState state,
      DeviceClassLister classes,
      Slices index,
      long budget) {

    public Inputs(
        AllocatorFeatures features,
        AllocatedState state,
        DeviceClassLister classes,
        List<ResourceSlice> slices,
        SelectorEngine cel,
        long budget) {
      this(features, state, classes, new Slices(features, slices, cel), budget);
    }

    List<ResourceSlice> slices() {
      return index.all();
    }

    SelectorEngine cel() {
      return index.cel();
    }
  }

  public static AllocationOutcome run(
      Inputs in, Node node, List<ResourceClaim> claims, Deadline deadline)
      throws AllocationException {
    return run(in, new PerAllocator(), node, null, claims, deadline);
  }

  /**
   * What one allocator keeps between its calls: the outcomes on node-independent pool views (a node
   * that sees the same pools as an earlier call gets that call's outcome) and the last claim list
   * it validated (a scheduler asks with the same claims on every node). Thread-safe.
   */
  public static final class PerAllocator {
    final SharedOutcomes shared = new SharedOutcomes();
    final PreparedClaims.Last prepared = new PreparedClaims.Last();
  }

  /**
   * As {@link #run(Inputs, Node, List, Deadline)}, with what earlier calls of one allocator kept,
   * and what earlier calls on this node kept in {@code cache} (may be null).
   */
  public static AllocationOutcome run(
      Inputs in,
      PerAllocator kept,
      Node node,
      NodeCache cache,
      List<ResourceClaim> claims,
      Deadline deadline)
      throws AllocationException {
    try {
      Slices.Gathered gathered = in.index().gather(node, cache);
      PreparedClaims prepared = kept.prepared.get(in, claims);
      if (gathered.nodeIndependent()) {
        return kept.shared.get(
            gathered,
            claims,
            NodeMatcher.name(node),
            () -> runChecked(in, node, claims, deadline, gathered, prepared));
      }
      if (cache != null) {
        return NodeMemo.allocate(in, cache, node, claims, deadline, gathered, prepared);
      }
      return runChecked(in, node, claims, deadline, gathered, prepared);
    } catch (IllegalArgumentException e) {
      // Malformed quantities or empty names: objects no API server would have accepted.
      throw new AllocationException("invalid input: " + e.getMessage(), e);
    }
  }

  private static AllocationOutcome runChecked(
      Inputs in,
      Node node,
      List<ResourceClaim> claims,
      Deadline deadline,
      Slices.Gathered gathered,
      PreparedClaims prepared)
      throws AllocationException {
    Dev[] devices = devices(gathered, in.state(), in.features().partitionableDevices());
    Search search = search(in, node, claims, deadline, gathered, prepared, devices);
    return outcome(in, node, claims, deadline, gathered, search);
  }

  /**
   * Runs the search on the node's devices; {@link Search#done} says whether it found a solution.
   */
  static Search search(
      Inputs in,
      Node node,
      List<ResourceClaim> claims,
      Deadline deadline,
      Slices.Gathered gathered,
      PreparedClaims prepared,
      Dev[] devices)
      throws AllocationException {
    List<PoolInfo> pools = gathered.pools();
    RequestData[][][] requests = new RequestData[claims.size()][][];
    Search search =
        new Search(
            in.features(),
            in.state(),
            node,
            claims,
            pools,
            devices,
            in.cel(),
            deadline,
            new ShareIds(),
            requests);
    prepared.fill(in, search, gathered);
    search.reset();
    search.budget = in.budget();
    int res;
    try {
      res = search.allocateOne(0, 0, 0, 0, false, 0);
    } catch (Search.BudgetExhausted e) {
      search.reset();
      search.budget = Long.MAX_VALUE;
      search.pruner = new MatchingPruner(search);
      res = search.allocateOne(0, 0, 0, 0, false, 0);
    }
    search.done = res == Search.DONE;
    return search;
  }

  /** The outcome of a finished search, with upstream's errors. */
  static AllocationOutcome outcome(
      Inputs in,
      Node node,
      List<ResourceClaim> claims,
      Deadline deadline,
      Slices.Gathered gathered,
      Search search)
      throws AllocationException {
    List<PoolInfo> pools = gathered.pools();
    if (search.done) {
      // Built when read: the scheduler reads the results of the one node it binds to.
      Results.check(search);
      return new AllocationOutcome.Allocated(() -> Results.build(search));
    }
    for (PoolInfo p : pools) {
      if (p.invalid()) {
        // Node-local: other nodes may see other slices of these pools, or none at all.
        throw AllocationException.nodeLocal("invalid resource pools were encountered");
      }
    }
    // The explanation is a jdra addition: made only when someone reads it (the scheduler reads
    // one per failed attempt), so a node that does not fit costs no more than in upstream.
    return new AllocationOutcome.Unschedulable(
        () -> explain(in, node, claims, deadline, search, gathered));
  }

  private static Explanation explain(
      Inputs in,
      Node node,
      List<ResourceClaim> claims,
      Deadline deadline,
      Search search,
      Slices.Gathered gathered) {
    // Slices of other nodes were never looked at; the explanation counts them too.
    List<Pools.Skipped> skipped = new ArrayList<>(gathered.skipped());
    String name = NodeMatcher.name(node);
    for (ResourceSlice slice : in.slices()) {
      if (Slices.nodeLocal(slice) && !slice.getSpec().getNodeName().equals(name)) {
        skipped.add(new Pools.Skipped(slice, "node does not match"));
      }
    }
    Explanation explanation = Explainer.explain(search, skipped);
    if (claims.size() > 1) {
      try {
        explanation =
            withConflict(
                explanation, search, claims, search.pools, search.devices, in, node, deadline);
      } catch (AllocationException e) {
        // Out of time for the extra search: the per-request reports stand on their own.
      }
    }
    return explanation;
  }

  /**
   * Adds which claim breaks it: the longest prefix of the claims that fits together, found with the
   * pruned search (only when allocation failed, so success pays nothing).
   */
  private static Explanation withConflict(
      Explanation explanation,
      Search failed,
      List<ResourceClaim> claims,
      List<PoolInfo> pools,
      Dev[] devices,
      Inputs in,
      Node node,
      Deadline deadline)
      throws AllocationException {
    int fits = 0;
    for (int k = 1; k < claims.size(); k++) {
      RequestData[][][] prefix = new RequestData[k][][];
      System.arraycopy(failed.requests, 0, prefix, 0, k);
      Search s =
          new Search(
              in.features(),
              in.state(),
              node,
              claims.subList(0, k),
              pools,
              devices,
              in.cel(),
              deadline,
              new ShareIds(),
              prefix);
      s.constraintSpecs = failed.constraintSpecs;
      s.reset();
      s.pruner = new MatchingPruner(s);
      if (s.allocateOne(0, 0, 0, 0, false, 0) != Search.DONE) {
        break;
      }
      fits = k;
    }
    List<String> notes = new ArrayList<>(explanation.notes());
    String culprit = kobj(claims.get(fits));
    if (fits == 0) {
      notes.add("claim " + culprit + " cannot be allocated even on its own");
    } else if (fits == 1) {
      notes.add(
          "claim "
              + kobj(claims.get(0))
              + " fits on its own; claim "
              + culprit
              + " does not fit in addition to it");
    } else {
      notes.add(
          "the first "
              + fits
              + " claims fit together; claim "
              + culprit
              + " does not fit in addition to them");
    }
    return new Explanation(explanation.node(), explanation.claims(), notes);
  }

  static Dev[] devices(Slices.Gathered view, AllocatedState state, boolean partitionable) {
    PoolInfo only = view.onlyPool();
    if (only != null) {
      // A node with one pool (the common case): that pool's array is the whole view's.
      return only.devices(state, view, 0, partitionable);
    }
    PoolInfo[] pools = view.runPools();
    Dev[] out = new Dev[view.devices().length];
    int[] starts = view.runStarts();
    for (int k = 0; k < pools.length; k++) {
      // One lookup per pool, and a pool whose devices in use did not change since the last
      // allocation on this view hands out the same Dev objects.
      Dev[] devs = pools[k].devices(state, view, k, partitionable);
      System.arraycopy(devs, 0, out, starts[k], devs.length);
    }
    return out;
  }

  /** A claim as klog prints an object reference: {@code namespace/name}, or {@code name}. */
  static String kobj(ResourceClaim claim) {
    String ns = claim.getMetadata() == null ? null : claim.getMetadata().getNamespace();
    String name = claim.getMetadata() == null ? "" : claim.getMetadata().getName();
    return ns == null || ns.isEmpty() ? name : ns + "/" + name;
  }

  static List<AllocationResult> none() {
    return List.of();
  }
}
