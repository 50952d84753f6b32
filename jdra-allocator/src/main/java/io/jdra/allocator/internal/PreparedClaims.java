package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocatorFeatures;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Upstream's validation of the claims to allocate, split into what no node changes and what each
 * node adds. Upstream's allocator checks every request (features, selectors, class, count) on every
 * {@code Allocate} call, that is per node; a scheduler calls it with the same claims on hundreds of
 * nodes per pod. Here those checks run once per claim list and leave a list of steps in upstream's
 * order: a request (copied per node, which adds the devices its selectors may accept and, for
 * "All", the devices it takes, with the errors those can raise), the device limit of a claim with
 * "All" requests (the count depends on the node), or an error that no node changes, kept at its
 * place so that each node reports the error upstream would report there. Immutable.
 */
final class PreparedClaims {
  /**
   * One step of {@link #fill}. A method of each step rather than a pattern switch over them: the
   * switch's type test (an invokedynamic bootstrap) showed as a quarter of Filter's CPU per node in
   * scheduler_perf's empty_500nodes.
   */
  private sealed interface Step {
    void apply(Allocation.Inputs in, Search search, Slices.Gathered view)
        throws AllocationException;
  }

  private record Request(RequestData proto) implements Step {
    @Override
    public void apply(Allocation.Inputs in, Search search, Slices.Gathered view)
        throws AllocationException {
      RequestData rd = proto.forNode();
      rd.selectable = view.selectable(rd.selectorKey);
      if (rd.allMode()) {
        allDevices(in, search, view, rd);
      }
      search.requests[rd.claimIndex][rd.requestIndex][rd.subRequestIndex] = rd;
    }
  }

  private record ClaimLimit(int claim) implements Step {
    @Override
    public void apply(Allocation.Inputs in, Search search, Slices.Gathered view)
        throws AllocationException {
      checkLimit(search, claim);
    }
  }

  private record Fail(AllocationException error) implements Step {
    @Override
    public void apply(Allocation.Inputs in, Search search, Slices.Gathered view)
        throws AllocationException {
      throw error;
    }
  }

  /** The claims, compared by identity: the objects are never changed. */
  private final List<ResourceClaim> claims;

  /** [claim][request]: how many entries (subrequests, or 1) the request has. */
  private final int[][] shape;

  private final Step[] steps;

  /** [claim]: the claim's constraints, for every search to start from. */
  private final Constraints.Spec[][] constraints;

  /**
   * What the outcome on a node depends on besides the node's view and devices in use: the claims'
   * specs (by value, see {@link ClaimSpecs}) and the classes their requests resolved to (by
   * identity: an informer replaces a changed class). Made on first use.
   */
  record Signature(Object specs, DeviceClass[] classes) {
    boolean sameAs(Signature o) {
      if (o == this) {
        return true;
      }
      if (o.specs != specs || o.classes.length != classes.length) {
        return false;
      }
      for (int i = 0; i < classes.length; i++) {
        if (o.classes[i] != classes[i]) {
          return false;
        }
      }
      return true;
    }
  }

  private volatile Signature signature;

  /**
   * The last signature made, handed out again for an equal one: pods of one template then share a
   * signature object, and a node's kept outcome is found to be for it by identity ({@link
   * Signature#sameAs}'s first test), without reading the kept signature and its classes, two cold
   * objects per node and pod in a scheduler's Filter.
   */
  private static volatile Signature lastSignature;

  Signature signature() {
    Signature s = signature;
    if (s == null) {
      List<DeviceClass> classes = new ArrayList<>();
      for (Step step : steps) {
        if (step instanceof Request r) {
          classes.add(r.proto().deviceClass);
        }
      }
      s = new Signature(ClaimSpecs.token(claims), classes.toArray(DeviceClass[]::new));
      Signature last = lastSignature;
      if (last != null && last.sameAs(s)) {
        s = last;
      } else {
        lastSignature = s;
      }
      signature = s;
    }
    return s;
  }

  private PreparedClaims(List<ResourceClaim> claims, int[][] shape, List<Step> steps) {
    this.claims = claims;
    this.shape = shape;
    this.steps = steps.toArray(Step[]::new);
    this.constraints = new Constraints.Spec[claims.size()][];
    for (int c = 0; c < claims.size(); c++) {
      constraints[c] = Constraints.Spec.of(claims.get(c));
    }
  }

  /**
   * The last claim list an allocator prepared: a scheduler's Filter asks with the same list on
   * every node, and with another list only for a pod's extended-resource claim, whose requests
   * depend on the node. Thread-safe; racing threads may both prepare, and agree.
   */
  static final class Last {
    private volatile PreparedClaims last;

    PreparedClaims get(Allocation.Inputs in, List<ResourceClaim> claims) {
      PreparedClaims p = last;
      if (p == null || !p.isFor(claims)) {
        p = prepare(in, claims);
        last = p;
      }
      return p;
    }
  }

  boolean isFor(List<ResourceClaim> other) {
    if (other.size() != claims.size()) {
      return false;
    }
    for (int i = 0; i < claims.size(); i++) {
      if (other.get(i) != claims.get(i)) {
        return false;
      }
    }
    return true;
  }

  static PreparedClaims prepare(Allocation.Inputs in, List<ResourceClaim> claims) {
    int[][] shape = new int[claims.size()][];
    List<Step> steps = new ArrayList<>();
    try {
      for (int c = 0; c < claims.size(); c++) {
        String error = prepareClaim(in, claims.get(c), c, shape, steps);
        if (error != null) {
          steps.add(new Fail(new AllocationException(error)));
          break;
        }
      }
    } catch (IllegalArgumentException e) {
      // Malformed objects no API server would have accepted, as Allocation.run reports them.
      steps.add(new Fail(new AllocationException("invalid input: " + e.getMessage(), e)));
    }
    return new PreparedClaims(List.copyOf(claims), shape, steps);
  }

  /**
   * Fills {@code search.requests} for the node's pools, raising the error upstream would raise on
   * this node, if any.
   */
  void fill(Allocation.Inputs in, Search search, Slices.Gathered view) throws AllocationException {
    search.constraintSpecs = constraints;
    for (int c = 0; c < shape.length && shape[c] != null; c++) {
      RequestData[][] out = new RequestData[shape[c].length][];
      for (int r = 0; r < out.length; r++) {
        out[r] = new RequestData[shape[c][r]];
      }
      search.requests[c] = out;
    }
    for (Step step : steps) {
      step.apply(in, search, view);
    }
  }

  /** Upstream's checks of one claim; the message of the first error, or null. */
  private static String prepareClaim(
      Allocation.Inputs in, ResourceClaim claim, int c, int[][] shape, List<Step> steps) {
    AllocatorFeatures f = in.features();
    List<DeviceRequest> reqs =
        claim.getSpec() == null || claim.getSpec().getDevices() == null
            ? List.of()
            : NodeMatcher.list(claim.getSpec().getDevices().getRequests());
    shape[c] = new int[reqs.size()];
    long minDevices = 0;
    boolean anyAll = false;
    for (int r = 0; r < reqs.size(); r++) {
      DeviceRequest req = reqs.get(r);
      List<DeviceSubRequest> subs = NodeMatcher.list(req.getFirstAvailable());
      if (!f.prioritizedList() && !subs.isEmpty()) {
        return where(claim, req.getName())
            + ": has subrequests, but the DRAPrioritizedList feature is disabled";
      }
      String capacity = capacityError(f, claim, req, subs);
      if (capacity != null) {
        return capacity;
      }
      List<RequestData> entries = new ArrayList<>();
      if (subs.isEmpty()) {
        entries.add(RequestData.exact(c, r, req));
      } else {
        for (int s = 0; s < subs.size(); s++) {
          entries.add(RequestData.sub(c, r, s, req, subs.get(s)));
        }
      }
      shape[c][r] = entries.size();
      long min = Long.MAX_VALUE;
      for (RequestData rd : entries) {
        String error = prepareRequest(in, claim, rd);
        if (error != null) {
          return error;
        }
        steps.add(new Request(rd));
        anyAll |= rd.allMode();
        min = Math.min(min, rd.numDevices);
      }
      minDevices += min;
    }
    if (anyAll) {
      steps.add(new ClaimLimit(c));
    } else if (minDevices > Search.RESULTS_MAX) {
      return limitError(claim, minDevices);
    }
    List<DeviceConstraint> constraints =
        claim.getSpec() == null || claim.getSpec().getDevices() == null
            ? List.of()
            : NodeMatcher.list(claim.getSpec().getDevices().getConstraints());
    for (int i = 0; i < constraints.size(); i++) {
      DeviceConstraint dc = constraints.get(i);
      if (dc.getMatchAttribute() == null && dc.getDistinctAttribute() == null) {
        return "claim "
            + Allocation.kobj(claim)
            + ", constraint #"
            + i
            + ": empty constraint (unsupported constraint type?)";
      }
    }
    return null;
  }

  private static String capacityError(
      AllocatorFeatures f, ResourceClaim claim, DeviceRequest req, List<DeviceSubRequest> subs) {
    if (f.consumableCapacity()) {
      return null;
    }
    if (req.getExactly() != null && req.getExactly().getCapacity() != null) {
      return where(claim, req.getName())
          + ": has capacity requests, but the DRAConsumableCapacity feature is disabled";
    }
    for (DeviceSubRequest s : subs) {
      if (s.getCapacity() != null) {
        return "claim "
            + Allocation.kobj(claim)
            + ", subrequest "
            + s.getName()
            + ": has capacity requests, but the DRAConsumableCapacity feature is disabled";
      }
    }
    return null;
  }

  /**
   * Selectors, admin access, class and count of one request; sets its class, selector key and (for
   * ExactCount) its device count. The message of the first error, or null.
   */
  private static String prepareRequest(Allocation.Inputs in, ResourceClaim claim, RequestData rd) {
    for (int i = 0; i < rd.selectors.size(); i++) {
      DeviceSelector sel = rd.selectors.get(i);
      if (sel.getCel() == null) {
        return where(claim, rd.name)
            + ", selector #"
            + i
            + ": CEL expression empty (unsupported selector type?)";
      }
    }
    if (!in.features().adminAccess() && rd.adminAccessField != null) {
      return where(claim, rd.name) + ": admin access is requested, but the feature is disabled";
    }
    if (rd.deviceClassName.isEmpty()) {
      return where(claim, rd.name) + ": missing device class name (unsupported request type?)";
    }
    Optional<DeviceClass> cls = in.classes().get(rd.deviceClassName);
    if (cls.isEmpty()) {
      return where(claim, rd.name)
          + ": could not retrieve device class "
          + rd.deviceClassName
          + ": deviceclass.resource.k8s.io \""
          + rd.deviceClassName
          + "\" not found";
    }
    rd.deviceClass = cls.get();
    rd.selectorKey = in.index().key(selectorKey(rd));
    switch (rd.allocationMode) {
      case RequestData.MODE_EXACT_COUNT -> {
        if (rd.count > Integer.MAX_VALUE) {
          return where(claim, rd.name) + ": exact count " + rd.count + " is too large";
        }
        rd.numDevices = (int) rd.count;
      }
      case RequestData.MODE_ALL -> {}
      default -> {
        return where(claim, rd.name) + ": unsupported count mode " + rd.allocationMode;
      }
    }
    return null;
  }

  /** An "All" request takes every selectable device that fits, from complete, valid pools. */
  private static void allDevices(
      Allocation.Inputs in, Search search, Slices.Gathered view, RequestData rd)
      throws AllocationException {
    ResourceClaim claim = search.claims.get(rd.claimIndex);
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

  /** The claim's device limit, once this node's "All" requests are counted. */
  private static void checkLimit(Search search, int c) throws AllocationException {
    long minDevices = 0;
    for (RequestData[] entries : search.requests[c]) {
      long min = Long.MAX_VALUE;
      for (RequestData rd : entries) {
        min = Math.min(min, rd.numDevices);
      }
      minDevices += min;
    }
    if (minDevices > Search.RESULTS_MAX) {
      throw new AllocationException(limitError(search.claims.get(c), minDevices));
    }
  }

  private static String limitError(ResourceClaim claim, long minDevices) {
    return "claim "
        + Allocation.kobj(claim)
        + ": number of requested devices "
        + minDevices
        + " exceeds the claim limit of "
        + Search.RESULTS_MAX;
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
    return "claim " + Allocation.kobj(claim) + ", request " + request;
  }
}
