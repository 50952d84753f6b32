package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.AllocatedState;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocationOutcome;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.allocator.Deadline;
import io.jdra.allocator.DeviceClassLister;
import io.jdra.allocator.Explanation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

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
    return run(in, null, node, claims, deadline);
  }

  /**
   * As {@link #run(Inputs, Node, List, Deadline)}; with {@code shared}, a node that sees the same
   * node-independent pools as an earlier call gets that call's outcome.
   */
  public static AllocationOutcome run(
      Inputs in, SharedOutcomes shared, Node node, List<ResourceClaim> claims, Deadline deadline)
      throws AllocationException {
    try {
      Slices.Gathered gathered = in.index().gather(node);
      if (shared != null && gathered.nodeIndependent()) {
        return shared.get(
            gathered,
            claims,
            NodeMatcher.name(node),
            () -> runChecked(in, node, claims, deadline, gathered));
      }
      return runChecked(in, node, claims, deadline, gathered);
    } catch (IllegalArgumentException e) {
      // Malformed quantities or empty names: objects no API server would have accepted.
      throw new AllocationException("invalid input: " + e.getMessage(), e);
    }
  }

  private static AllocationOutcome runChecked(
      Inputs in, Node node, List<ResourceClaim> claims, Deadline deadline, Slices.Gathered gathered)
      throws AllocationException {
    List<PoolInfo> pools = gathered.pools();
    Dev[] devices = devices(gathered.devices(), in.state(), in.features().partitionableDevices());
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
    for (int c = 0; c < claims.size(); c++) {
      requests[c] = validateClaim(in, search, gathered, c);
    }
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
    if (res == Search.DONE) {
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

  static Dev[] devices(DevFacts[] facts, AllocatedState state, boolean partitionable) {
    Dev[] out = new Dev[facts.length];
    int from = 0;
    while (from < facts.length) {
      // Devices come pool by pool: one lookup per pool, and a pool whose devices in use did not
      // change since the last allocation on this view hands out the same Dev objects.
      PoolInfo pool = facts[from].pool;
      int to = from + 1;
      while (to < facts.length && facts[to].pool == pool) {
        to++;
      }
      Dev[] devs = pool.devices(state.pool(pool.driver, pool.name), facts, from, to, partitionable);
      System.arraycopy(devs, 0, out, from, to - from);
      from = to;
    }
    return out;
  }

  private static RequestData[][] validateClaim(
      Inputs in, Search search, Slices.Gathered view, int c) throws AllocationException {
    ResourceClaim claim = search.claims.get(c);
    AllocatorFeatures f = in.features();
    List<DeviceRequest> reqs =
        claim.getSpec() == null || claim.getSpec().getDevices() == null
            ? List.of()
            : NodeMatcher.list(claim.getSpec().getDevices().getRequests());
    RequestData[][] out = new RequestData[reqs.size()][];
    search.requests[c] = out;
    long minDevices = 0;
    for (int r = 0; r < reqs.size(); r++) {
      DeviceRequest req = reqs.get(r);
      List<DeviceSubRequest> subs = NodeMatcher.list(req.getFirstAvailable());
      if (!f.prioritizedList() && !subs.isEmpty()) {
        throw new AllocationException(
            where(claim, req.getName())
                + ": has subrequests, but the DRAPrioritizedList feature is disabled");
      }
      if (!f.consumableCapacity()) {
        if (req.getExactly() != null && req.getExactly().getCapacity() != null) {
          throw new AllocationException(
              where(claim, req.getName())
                  + ": has capacity requests, but the DRAConsumableCapacity feature is disabled");
        }
        for (DeviceSubRequest s : subs) {
          if (s.getCapacity() != null) {
            throw new AllocationException(
                "claim "
                    + kobj(claim)
                    + ", subrequest "
                    + s.getName()
                    + ": has capacity requests, but the DRAConsumableCapacity feature is disabled");
          }
        }
      }
      if (!subs.isEmpty()) {
        out[r] = new RequestData[subs.size()];
        long min = Long.MAX_VALUE;
        for (int s = 0; s < subs.size(); s++) {
          RequestData rd = RequestData.sub(c, r, s, req, subs.get(s));
          out[r][s] = rd;
          validateRequest(in, search, view, claim, rd);
          min = Math.min(min, rd.numDevices);
        }
        minDevices += min;
      } else {
        RequestData rd = RequestData.exact(c, r, req);
        out[r] = new RequestData[] {rd};
        validateRequest(in, search, view, claim, rd);
        minDevices += rd.numDevices;
      }
    }
    if (minDevices > Search.RESULTS_MAX) {
      throw new AllocationException(
          "claim "
              + kobj(claim)
              + ": number of requested devices "
              + minDevices
              + " exceeds the claim limit of "
              + Search.RESULTS_MAX);
    }
    List<DeviceConstraint> constraints =
        claim.getSpec() == null || claim.getSpec().getDevices() == null
            ? List.of()
            : NodeMatcher.list(claim.getSpec().getDevices().getConstraints());
    for (int i = 0; i < constraints.size(); i++) {
      DeviceConstraint dc = constraints.get(i);
      if (dc.getMatchAttribute() == null && dc.getDistinctAttribute() == null) {
        throw new AllocationException(
            "claim "
                + kobj(claim)
                + ", constraint #"
                + i
                + ": empty constraint (unsupported constraint type?)");
      }
    }
    return out;
  }

  private static void validateRequest(
      Inputs in, Search search, Slices.Gathered view, ResourceClaim claim, RequestData rd)
      throws AllocationException {
    for (int i = 0; i < rd.selectors.size(); i++) {
      DeviceSelector sel = rd.selectors.get(i);
      if (sel.getCel() == null) {
        throw new AllocationException(
            where(claim, rd.name)
                + ", selector #"
                + i
                + ": CEL expression empty (unsupported selector type?)");
      }
    }
    if (!in.features().adminAccess() && rd.adminAccessField != null) {
      throw new AllocationException(
          where(claim, rd.name) + ": admin access is requested, but the feature is disabled");
    }
    if (rd.deviceClassName.isEmpty()) {
      throw new AllocationException(
          where(claim, rd.name) + ": missing device class name (unsupported request type?)");
    }
    Optional<DeviceClass> cls = in.classes().get(rd.deviceClassName);
    if (cls.isEmpty()) {
      throw new AllocationException(
          where(claim, rd.name)
              + ": could not retrieve device class "
              + rd.deviceClassName
              + ": deviceclass.resource.k8s.io \""
              + rd.deviceClassName
              + "\" not found");
    }
    rd.deviceClass = cls.get();
    rd.selectable = view.selectable(selectorKey(rd));
    switch (rd.allocationMode) {
      case RequestData.MODE_EXACT_COUNT -> {
        if (rd.count > Integer.MAX_VALUE) {
          throw new AllocationException(
              where(claim, rd.name) + ": exact count " + rd.count + " is too large");
        }
        rd.numDevices = (int) rd.count;
      }
      case RequestData.MODE_ALL -> {
        List<Dev> all = new ArrayList<>();
        for (PoolInfo pool : view.pools()) {
          if (pool.incomplete) {
            throw new AllocationException(
                where(claim, rd.name)
                    + ": asks for all devices, but resource pool "
                    + pool.id()
                    + " is currently being updated");
          }
          if (pool.invalid()) {
            throw new AllocationException(
                where(claim, rd.name)
                    + ": asks for all devices, but resource pool "
                    + pool.id()
                    + " is currently invalid");
          }
          for (Dev dev : search.devices) {
            if (dev.pool != pool || !search.isSelectable(rd, dev)) {
              continue;
            }
            if (in.features().consumableCapacity()
                && search.capacityFit(rd, dev) != Capacity.Fit.FITS) {
              continue;
            }
            all.add(dev);
          }
        }
        rd.allDevices = all;
        rd.numDevices = all.size();
      }
      default ->
          throw new AllocationException(
              where(claim, rd.name) + ": unsupported count mode " + rd.allocationMode);
    }
  }

  /**
   * The expressions that decide whether a device is selectable for the request: the class's, a
   * separator, the request's (a missing expression, which fails when met, as "").
   */
  private static List<String> selectorKey(RequestData rd) {
    List<String> key = new ArrayList<>();
    if (rd.deviceClass.getSpec() != null) {
      addExpressions(key, rd.deviceClass.getSpec().getSelectors());
    }
    key.add(null);
    addExpressions(key, rd.selectors);
    return Collections.unmodifiableList(key);
  }

  private static void addExpressions(List<String> key, List<DeviceSelector> selectors) {
    for (DeviceSelector sel : NodeMatcher.list(selectors)) {
      key.add(sel.getCel() == null ? "" : NodeMatcher.nz(sel.getCel().getExpression()));
    }
  }

  /** Where an error is, as upstream words it: {@code claim ns/name, request r}. */
  private static String where(ResourceClaim claim, String request) {
    return "claim " + kobj(claim) + ", request " + request;
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
