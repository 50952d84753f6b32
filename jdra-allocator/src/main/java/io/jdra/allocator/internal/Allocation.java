package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
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
import io.jdra.api.names.DeviceId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
      List<ResourceSlice> slices,
      SelectorEngine cel,
      long budget,
      Map<String, List<ResourceSlice>> slicesByNode,
      List<ResourceSlice> sharedSlices) {

    public Inputs(
        AllocatorFeatures features,
        AllocatedState state,
        DeviceClassLister classes,
        List<ResourceSlice> slices,
        SelectorEngine cel,
        long budget) {
      this(features, state, classes, slices, cel, budget, byNode(slices), shared(slices));
    }

    /** Slices that may be relevant for the node: its own, and those without a node name. */
    List<ResourceSlice> forNode(String node) {
      List<ResourceSlice> own = slicesByNode.getOrDefault(node, List.of());
      if (own.isEmpty()) {
        return sharedSlices;
      }
      List<ResourceSlice> out = new ArrayList<>(own.size() + sharedSlices.size());
      out.addAll(own);
      out.addAll(sharedSlices);
      return out;
    }

    static boolean nodeLocal(ResourceSlice s) {
      String n = s.getSpec().getNodeName();
      boolean counters =
          s.getSpec().getSharedCounters() != null && !s.getSpec().getSharedCounters().isEmpty();
      return n != null && !n.isEmpty() && !counters;
    }

    private static Map<String, List<ResourceSlice>> byNode(List<ResourceSlice> slices) {
      Map<String, List<ResourceSlice>> out = new HashMap<>();
      for (ResourceSlice s : slices) {
        if (nodeLocal(s)) {
          out.computeIfAbsent(s.getSpec().getNodeName(), k -> new ArrayList<>()).add(s);
        }
      }
      return out;
    }

    private static List<ResourceSlice> shared(List<ResourceSlice> slices) {
      List<ResourceSlice> out = new ArrayList<>();
      for (ResourceSlice s : slices) {
        if (!nodeLocal(s)) {
          out.add(s);
        }
      }
      return out;
    }
  }

  public static AllocationOutcome run(
      Inputs in, Node node, List<ResourceClaim> claims, Deadline deadline)
      throws AllocationException {
    try {
      return runChecked(in, node, claims, deadline);
    } catch (IllegalArgumentException e) {
      // Malformed quantities or empty names: objects no API server would have accepted.
      throw new AllocationException("invalid input: " + e.getMessage(), e);
    }
  }

  private static AllocationOutcome runChecked(
      Inputs in, Node node, List<ResourceClaim> claims, Deadline deadline)
      throws AllocationException {
    List<Pools.Skipped> skipped = new ArrayList<>();
    List<PoolInfo> pools =
        Pools.gather(in.forNode(NodeMatcher.name(node)), in.slices(), node, in.features(), skipped);
    Dev[] devices = devices(pools, in.state());
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
      requests[c] = validateClaim(in, search, pools, c);
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
      return new AllocationOutcome.Allocated(Results.build(search));
    }
    for (PoolInfo p : pools) {
      if (p.invalid()) {
        // Node-local: other nodes may see other slices of these pools, or none at all.
        throw AllocationException.nodeLocal("invalid resource pools were encountered");
      }
    }
    // Slices of other nodes were never looked at; the explanation counts them too.
    String name = NodeMatcher.name(node);
    for (ResourceSlice slice : in.slices()) {
      if (Inputs.nodeLocal(slice) && !slice.getSpec().getNodeName().equals(name)) {
        skipped.add(new Pools.Skipped(slice, "node does not match"));
      }
    }
    Explanation explanation = Explainer.explain(search, skipped);
    if (claims.size() > 1) {
      explanation = withConflict(explanation, search, claims, pools, devices, in, node, deadline);
    }
    return new AllocationOutcome.Unschedulable(explanation);
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

  static Dev[] devices(List<PoolInfo> pools, AllocatedState state) {
    List<Dev> out = new ArrayList<>();
    for (PoolInfo pool : pools) {
      if (pool.incomplete || pool.invalid()) {
        continue;
      }
      for (ResourceSlice slice : pool.slicesTargetingNode) {
        for (Device d : NodeMatcher.list(slice.getSpec().getDevices())) {
          DeviceId key = new DeviceId(pool.driver, pool.name, d.getName());
          out.add(
              new Dev(
                  out.size(),
                  key,
                  d,
                  slice,
                  pool,
                  state.isAllocatedExclusively(pool.driver, pool.name, d.getName()),
                  state.isInUse(pool.driver, pool.name, d.getName())));
        }
      }
    }
    return out.toArray(Dev[]::new);
  }

  private static RequestData[][] validateClaim(
      Inputs in, Search search, List<PoolInfo> pools, int c) throws AllocationException {
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
      String where = "claim " + kobj(claim) + ", request " + req.getName();
      if (!f.prioritizedList() && !subs.isEmpty()) {
        throw new AllocationException(
            where + ": has subrequests, but the DRAPrioritizedList feature is disabled");
      }
      if (!f.consumableCapacity()) {
        if (req.getExactly() != null && req.getExactly().getCapacity() != null) {
          throw new AllocationException(
              where + ": has capacity requests, but the DRAConsumableCapacity feature is disabled");
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
          validateRequest(in, search, pools, claim, rd);
          min = Math.min(min, rd.numDevices);
        }
        minDevices += min;
      } else {
        RequestData rd = RequestData.exact(c, r, req);
        out[r] = new RequestData[] {rd};
        validateRequest(in, search, pools, claim, rd);
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
      Inputs in, Search search, List<PoolInfo> pools, ResourceClaim claim, RequestData rd)
      throws AllocationException {
    String where = "claim " + kobj(claim) + ", request " + rd.name;
    for (int i = 0; i < rd.selectors.size(); i++) {
      DeviceSelector sel = rd.selectors.get(i);
      if (sel.getCel() == null) {
        throw new AllocationException(
            where + ", selector #" + i + ": CEL expression empty (unsupported selector type?)");
      }
    }
    if (!in.features().adminAccess() && rd.adminAccessField != null) {
      throw new AllocationException(
          where + ": admin access is requested, but the feature is disabled");
    }
    if (rd.deviceClassName.isEmpty()) {
      throw new AllocationException(
          where + ": missing device class name (unsupported request type?)");
    }
    Optional<DeviceClass> cls = in.classes().get(rd.deviceClassName);
    if (cls.isEmpty()) {
      throw new AllocationException(
          where
              + ": could not retrieve device class "
              + rd.deviceClassName
              + ": deviceclass.resource.k8s.io \""
              + rd.deviceClassName
              + "\" not found");
    }
    rd.deviceClass = cls.get();
    rd.selectable = new byte[search.devices.length];
    switch (rd.allocationMode) {
      case RequestData.MODE_EXACT_COUNT -> {
        if (rd.count > Integer.MAX_VALUE) {
          throw new AllocationException(where + ": exact count " + rd.count + " is too large");
        }
        rd.numDevices = (int) rd.count;
      }
      case RequestData.MODE_ALL -> {
        List<Dev> all = new ArrayList<>();
        for (PoolInfo pool : pools) {
          if (pool.incomplete) {
            throw new AllocationException(
                where
                    + ": asks for all devices, but resource pool "
                    + pool.id()
                    + " is currently being updated");
          }
          if (pool.invalid()) {
            throw new AllocationException(
                where
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
          throw new AllocationException(where + ": unsupported count mode " + rd.allocationMode);
    }
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
