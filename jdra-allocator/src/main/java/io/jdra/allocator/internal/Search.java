package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.allocator.AllocatedState;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.allocator.Deadline;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The depth-first search of upstream's allocator, step for step, so that the first solution is the
 * one upstream finds: claims, requests, subrequests and devices in order; the devices of one
 * request in increasing search order. A {@link Pruner}, when set, cuts branches that provably have
 * no solution; that never changes which solution comes first, it only gets there sooner.
 *
 * <p>One instance serves one {@code allocate} call on one thread.
 */
final class Search {
  static final int RESULTS_MAX = 32;

  static final int FAIL = 0;
  static final int DONE = 1;

  /** Upstream's errAllocationResultMaxSizeExceeded: backtrack further, maybe to a subrequest. */
  static final int MAX_EXCEEDED = 2;

  /** Thrown when phase one has spent its budget; the caller restarts with pruning. */
  static final class BudgetExhausted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BudgetExhausted() {
      super(null, null, false, false);
    }
  }

  final AllocatorFeatures features;
  final AllocatedState state;
  final Node node;
  final List<ResourceClaim> claims;
  final List<PoolInfo> pools;
  final Dev[] devices;
  final SelectorEngine cel;
  final Deadline deadline;
  final ShareIds shareIds;

  /** [claim][request][subrequest]; a request without subrequests has one entry. */
  final RequestData[][][] requests;

  final int[][] selectedSub;

  /**
   * [claim]: the claims' constraints as prepared once per claim list (at least as many entries as
   * claims); made from the claims on the first {@link #reset} when not given.
   */
  Constraints.Spec[][] constraintSpecs;

  Constraints.Constraint[][] constraints;
  List<Pick>[] results;
  int[] exclusiveHolders;
  int[] pendingShares;
  Map<Integer, Map<String, BigDecimal>> allocatingCapacity = Map.of();

  /** What the picks so far consume, per pool (by identity) and counter set. */
  Map<String, Map<String, BigDecimal>>[] consumedCounters;

  long calls;
  long budget = Long.MAX_VALUE;

  /** Set when the search has finished: whether it found a solution. */
  boolean done;

  Pruner pruner;

  @SuppressWarnings("unchecked")
  Search(
      AllocatorFeatures features,
      AllocatedState state,
      Node node,
      List<ResourceClaim> claims,
      List<PoolInfo> pools,
      Dev[] devices,
      SelectorEngine cel,
      Deadline deadline,
      ShareIds shareIds,
      RequestData[][][] requests) {
    this.features = features;
    this.state = state;
    this.node = node;
    this.claims = claims;
    this.pools = pools;
    this.devices = devices;
    this.cel = cel;
    this.deadline = deadline;
    this.shareIds = shareIds;
    this.requests = requests;
    this.selectedSub = new int[claims.size()][];
  }

  /** Fresh search state (phase two starts from scratch). */
  @SuppressWarnings("unchecked")
  void reset() {
    for (int c = 0; c < claims.size(); c++) {
      selectedSub[c] = new int[requests[c].length];
    }
    if (constraintSpecs == null) {
      constraintSpecs = new Constraints.Spec[claims.size()][];
      for (int c = 0; c < claims.size(); c++) {
        constraintSpecs[c] = Constraints.Spec.of(claims.get(c));
      }
    }
    constraints = new Constraints.Constraint[claims.size()][];
    for (int c = 0; c < claims.size(); c++) {
      Constraints.Spec[] specs = constraintSpecs[c];
      constraints[c] = new Constraints.Constraint[specs.length];
      for (int i = 0; i < specs.length; i++) {
        constraints[c][i] = specs[i].start(features.listTypeAttributes());
      }
    }
    results = new List[claims.size()];
    for (int c = 0; c < claims.size(); c++) {
      results[c] = new ArrayList<>();
    }
    exclusiveHolders = new int[devices.length];
    // Shares exist only with consumable capacity; most searches need neither.
    boolean shares = features.consumableCapacity();
    pendingShares = shares ? new int[devices.length] : null;
    allocatingCapacity = shares ? new HashMap<>() : Map.of();
    consumedCounters = new Map[pools.size()];
    calls = 0;
  }

  private void tick() throws AllocationException {
    calls++;
    if (calls > budget) {
      throw new BudgetExhausted();
    }
    checkDeadline();
  }

  /**
   * Called at every search step and before every CEL evaluation, so that the search stops within
   * one step or one evaluation after the deadline (upstream checks its context at every step).
   */
  void checkDeadline() throws AllocationException {
    if (deadline.expired()) {
      throw AllocationException.deadlineExceeded(
          "filter operation aborted: context deadline exceeded");
    }
  }

  /**
   * Upstream {@code allocateOne}; returns {@link #DONE}, {@link #FAIL} or {@link #MAX_EXCEEDED}.
   */
  int allocateOne(int c, int r, int s, int d, boolean allocateSub, int start)
      throws AllocationException {
    tick();
    if (c >= claims.size()) {
      return DONE;
    }
    RequestData[][] reqs = requests[c];
    if (r >= reqs.length) {
      int res = allocateOne(c + 1, 0, 0, 0, false, 0);
      return res == MAX_EXCEEDED ? FAIL : res;
    }
    RequestData rd = reqs[r][s];
    if (!allocateSub && rd.isSubRequest()) {
      boolean allExceeded = true;
      for (int si = 0; si < reqs[r].length; si++) {
        int res = allocateOne(c, r, si, d, true, 0);
        if (res == MAX_EXCEEDED) {
          continue;
        }
        allExceeded = false;
        if (res == DONE) {
          selectedSub[c][r] = si;
          return DONE;
        }
      }
      return allExceeded ? MAX_EXCEEDED : FAIL;
    }
    if (rd.allMode() && rd.allDevices.isEmpty()) {
      return FAIL;
    }
    if (d >= rd.numDevices) {
      return allocateOne(c, r + 1, 0, 0, false, 0);
    }
    if (results[c].size() + rd.numDevices - d > RESULTS_MAX) {
      return MAX_EXCEEDED;
    }
    if (pruner != null && !pruner.feasible(c, r, s, d, start)) {
      return FAIL;
    }
    if (rd.allMode()) {
      Pick p = allocateDevice(c, rd, rd.allDevices.get(d), true);
      if (p == null) {
        return FAIL;
      }
      int res = allocateOne(c, r, s, d + 1, allocateSub, 0);
      if (res != DONE) {
        deallocate(c, p);
      }
      return res;
    }
    for (int i = start; i < devices.length; i++) {
      Dev dev = devices[i];
      if (rd.adminAccess() ? holdsForClaim(dev, c) : inUse(dev)) {
        continue;
      }
      if (!isSelectable(rd, dev)) {
        continue;
      }
      if (features.consumableCapacity() && capacityFit(rd, dev) != Capacity.Fit.FITS) {
        continue;
      }
      Pick p = allocateDevice(c, rd, dev, false);
      if (p == null) {
        continue;
      }
      int res = allocateOne(c, r, s, d + 1, allocateSub, i + 1);
      if (res == DONE) {
        return DONE;
      }
      deallocate(c, p);
      if (res == MAX_EXCEEDED) {
        return MAX_EXCEEDED;
      }
    }
    return FAIL;
  }

  boolean inUse(Dev dev) {
    return dev.allocated || exclusiveHolders[dev.index] > 0;
  }

  boolean holdsForClaim(Dev dev, int c) {
    if (exclusiveHolders[dev.index] == 0) {
      return false;
    }
    for (Pick p : results[c]) {
      if (p.dev() == dev && p.exclusive()) {
        return true;
      }
    }
    return false;
  }

  /** Upstream {@code isSelectable}: class and request selectors, per-device node selection. */
  boolean isSelectable(RequestData rd, Dev dev) throws AllocationException {
    Device device = dev.device;
    if (!features.deviceBindingAndStatus()
        && device.getBindingConditions() != null
        && !device.getBindingConditions().isEmpty()) {
      return false;
    }
    byte cached = rd.selectable[dev.index];
    if (cached != 0) {
      return cached == 1;
    }
    checkDeadline();
    boolean ok = selectorsMatch(rd, dev) && nodeMatches(dev);
    rd.selectable[dev.index] = (byte) (ok ? 1 : 2);
    return ok;
  }

  /** Class selectors, then request selectors; no caching, no node check. */
  boolean selectorsMatch(RequestData rd, Dev dev) throws AllocationException {
    if (rd.deviceClass != null
        && rd.deviceClass.getSpec() != null
        && !matchAll(rd, dev, rd.deviceClass.getSpec().getSelectors(), true)) {
      return false;
    }
    return matchAll(rd, dev, rd.selectors, false);
  }

  /** Whether a device of a per-device-node-selection slice is available on this node. */
  boolean nodeMatches(Dev dev) throws AllocationException {
    if (!dev.perDeviceNodeSelection()) {
      return true;
    }
    Device device = dev.device;
    try {
      return NodeMatcher.matches(
          node,
          device.getNodeName(),
          Boolean.TRUE.equals(device.getAllNodes()),
          device.getNodeSelector());
    } catch (NodeMatcher.InvalidSelectorException e) {
      throw new AllocationException("failed to parse node selector: " + e.getMessage());
    }
  }

  private boolean matchAll(RequestData rd, Dev dev, List<DeviceSelector> selectors, boolean isClass)
      throws AllocationException {
    if (selectors == null) {
      return true;
    }
    for (int i = 0; i < selectors.size(); i++) {
      DeviceSelector sel = selectors.get(i);
      if (sel.getCel() == null) {
        // Validated before the search for requests; a class may still carry an unknown kind.
        throw new AllocationException(
            where(rd, isClass)
                + ": selector #"
                + i
                + ": CEL expression empty (unsupported selector type?)");
      }
      String expression = sel.getCel().getExpression();
      // One lookup for a result known from an earlier allocation (the common case).
      Object known = dev.facts.known(expression);
      boolean matches;
      try {
        if (known instanceof Boolean b) {
          matches = b;
        } else if (known instanceof String error) {
          throw new SelectorEngine.EvaluationException(error);
        } else {
          SelectorEngine.Compiled compiled = cel.compile(expression);
          if (compiled.compileError() != null) {
            throw new AllocationException(
                where(rd, isClass)
                    + ": selector #"
                    + i
                    + ": CEL compile error: "
                    + compiled.compileError());
          }
          matches = dev.facts.matches(expression, compiled, cel);
        }
      } catch (SelectorEngine.EvaluationException e) {
        throw new AllocationException(
            where(rd, isClass) + ": selector #" + i + ": CEL runtime error: " + e.getMessage());
      }
      if (!matches) {
        return false;
      }
    }
    return true;
  }

  private String where(RequestData rd, boolean isClass) {
    return isClass
        ? "class " + rd.deviceClass.getMetadata().getName()
        : "claim " + Allocation.kobj(claims.get(rd.claimIndex));
  }

  Capacity.Fit capacityFit(RequestData rd, Dev dev) {
    // A device has capacity being allocated exactly while it has pending shares: asking the
    // array spares boxing its index for a map lookup on every candidate.
    boolean allocating = pendingShares != null && pendingShares[dev.index] > 0;
    if (dev.consumed == null && !allocating && rd.noCapacityRequests()) {
      // The common case depends on the device alone: worked out once per device.
      return dev.fitsWhenUnused();
    }
    return Capacity.fits(
        dev.consumed,
        rd.capacity,
        dev.device.getCapacity(),
        allocating ? allocatingCapacity.get(dev.index) : null);
  }

  boolean consumesCounters(Dev dev) {
    return dev.consumesCounters;
  }

  /**
   * Upstream {@code allocateDevice}: availability, counters, taints and constraints for one
   * candidate; on success the state records it and the pick is returned for {@link #deallocate}.
   * Unlike upstream, a rejection never leaves consumed counters behind.
   */
  Pick allocateDevice(int c, RequestData rd, Dev dev, boolean must) throws AllocationException {
    boolean allowMulti = features.consumableCapacity() && dev.allowMultipleAllocations;
    if (!allowMulti && rd.adminAccess() && holdsForClaim(dev, c)) {
      return null;
    }
    if (!rd.adminAccess() && inUse(dev)) {
      return null;
    }
    if (!features.partitionableDevices() && consumesCounters(dev)) {
      return null;
    }
    Constraints.Constraint[] cs = constraints[c];
    if (!must) {
      // A device the constraints reject is rejected whatever else holds; asking them first (a
      // pure check) spares taking and returning counters for it. Errors depend on the order
      // only when the device must be taken, so that order is kept there.
      for (Constraints.Constraint k : cs) {
        if (!k.admits(rd, dev)) {
          return null;
        }
      }
    }
    boolean skipCounters = allowMulti && capacityInUse(dev);
    boolean counters = false;
    if (!skipCounters && consumesCounters(dev)) {
      if (!takeCounters(dev)) {
        return null;
      }
      counters = true;
    }
    if (features.deviceTaints() && Taints.untolerated(dev.taints, rd.tolerations) != null) {
      if (counters) {
        returnCounters(dev);
      }
      return null;
    }
    for (int i = 0; i < cs.length; i++) {
      if (!cs[i].add(rd, dev)) {
        for (int e = 0; e < i; e++) {
          cs[e].remove(rd, dev);
        }
        if (counters) {
          returnCounters(dev);
        }
        if (must) {
          throw new AllocationException(
              "claim "
                  + Allocation.kobj(claims.get(c))
                  + ", request "
                  + rd.name
                  + ": cannot add device "
                  + dev.id
                  + " because a claim constraint would not be satisfied");
        }
        return null;
      }
    }
    String shareId = null;
    Map<String, io.fabric8.kubernetes.api.model.Quantity> consumed = null;
    if (features.consumableCapacity()) {
      if (capacityFit(rd, dev) != Capacity.Fit.FITS) {
        for (Constraints.Constraint k : cs) {
          k.remove(rd, dev);
        }
        if (counters) {
          returnCounters(dev);
        }
        return null;
      }
      if (allowMulti) {
        consumed = Capacity.consumedByRequest(rd.capacity, dev.device.getCapacity());
        shareId = shareIds.next(claims.get(c), rd, dev, state);
        Map<String, BigDecimal> sum =
            allocatingCapacity.computeIfAbsent(dev.index, k -> new HashMap<>());
        Capacity.values(consumed).forEach((k, v) -> sum.merge(k, v, BigDecimal::add));
        pendingShares[dev.index]++;
        if (consumed.isEmpty()) {
          consumed = null;
        }
      }
    }
    if (!allowMulti) {
      exclusiveHolders[dev.index]++;
    }
    Pick p = new Pick(rd, dev, !allowMulti, counters, shareId, consumed);
    results[c].add(p);
    return p;
  }

  void deallocate(int c, Pick p) {
    for (Constraints.Constraint k : constraints[c]) {
      k.remove(p.request(), p.dev());
    }
    if (p.exclusive()) {
      exclusiveHolders[p.dev().index]--;
    } else if (p.consumedCapacity() != null || p.shareId() != null) {
      Map<String, BigDecimal> sum = allocatingCapacity.get(p.dev().index);
      if (p.consumedCapacity() != null) {
        Capacity.values(p.consumedCapacity())
            .forEach((k, v) -> sum.merge(k, v.negate(), BigDecimal::add));
      }
      pendingShares[p.dev().index]--;
      if (pendingShares[p.dev().index] == 0) {
        allocatingCapacity.remove(p.dev().index);
      }
    }
    if (p.countersConsumed()) {
      returnCounters(p.dev());
    }
    results[c].remove(results[c].size() - 1);
  }

  private boolean capacityInUse(Dev dev) {
    return dev.consumed != null || allocatingCapacity.containsKey(dev.index);
  }

  /** Adds the device's counter consumption; false (and nothing changed) if a counter runs out. */
  private boolean takeCounters(Dev dev) {
    if (dev.countersNeverFit) {
      return false;
    }
    Map<String, Map<String, BigDecimal>> consumed = consumedCounters[dev.pool.ordinal];
    Map<String, Map<String, BigDecimal>> mine = dev.facts.counterConsumption();
    if (!Counters.fits(dev.poolCounters, consumed, mine)) {
      return false;
    }
    if (consumed == null) {
      consumed = new HashMap<>();
      consumedCounters[dev.pool.ordinal] = consumed;
    }
    addCounters(consumed, mine, false);
    return true;
  }

  private void returnCounters(Dev dev) {
    addCounters(consumedCounters[dev.pool.ordinal], dev.facts.counterConsumption(), true);
  }

  private static void addCounters(
      Map<String, Map<String, BigDecimal>> consumed,
      Map<String, Map<String, BigDecimal>> device,
      boolean negate) {
    device.forEach((setName, counters) -> {
      Map<String, BigDecimal> set = consumed.computeIfAbsent(setName, k -> new HashMap<>());
      counters.forEach((name, v) -> set.merge(name, negate ? v.negate() : v, BigDecimal::add));
    });
  }

  /** Counters left by the devices allocated before this allocation (for explanations). */
  Map<String, Map<String, BigDecimal>> computeAvailable(PoolInfo pool) {
    return pool.availableCounters(state.pool(pool.lookup));
  }
}
