package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocationOutcome;
import io.jdra.allocator.Allocator;
import io.jdra.allocator.Deadline;
import io.jdra.api.nodeaffinity.NodeSelectors;
import io.jdra.api.resourceclaim.ClaimCopies;
import io.jdra.api.resourceclaim.RequestRefs;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.Ctx;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.EnqueueExtensions;
import io.jdra.scheduler.framework.ExplainsFailure;
import io.jdra.scheduler.framework.FilterPlugin;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.PostFilterPlugin;
import io.jdra.scheduler.framework.PreBindPlugin;
import io.jdra.scheduler.framework.PreEnqueuePlugin;
import io.jdra.scheduler.framework.PreFilterPlugin;
import io.jdra.scheduler.framework.QueueingHint;
import io.jdra.scheduler.framework.ReservePlugin;
import io.jdra.scheduler.framework.ScorePlugin;
import io.jdra.scheduler.framework.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Upstream's DynamicResources plugin with Kubernetes 1.36 semantics; {@code package-info} has the
 * lifecycle. Shared by all attempts; per-attempt data lives in {@link StateData}.
 */
public final class DynamicResources
    implements PreEnqueuePlugin,
        PreFilterPlugin,
        FilterPlugin,
        PostFilterPlugin,
        ScorePlugin,
        ReservePlugin,
        PreBindPlugin,
        EnqueueExtensions,
        ExplainsFailure {
  public static final String NAME = "DynamicResources";

  /**
   * Filter's answer on a node where the claims do not fit, made once: with devices in use hundreds
   * of nodes per pod give it. Statuses are immutable, and the framework keeps one that already
   * names its plugin.
   */
  private static final Status CANNOT_ALLOCATE =
      Status.unschedulable("cannot allocate all claims").withPlugin(NAME);

  /** Upstream {@code resourceapi.FirstAvailableDeviceRequestMaxSize}. */
  static final int FIRST_AVAILABLE_MAX_SIZE = 8;

  private final DraManager manager;
  private final DynamicResourcesArgs args;
  private final boolean filterTimeoutEnabled;
  private final LongSupplier nanoClock;
  private final ClaimWriter writer;
  private final Function<String, String> extendedResourceClass;
  private volatile DraMetrics metrics = DraMetrics.NONE;
  private final PodEvents events;
  private final boolean nodeAllocatable;

  private DynamicResources(Builder b) {
    this.manager = b.manager;
    this.args = b.args;
    this.filterTimeoutEnabled = b.filterTimeoutEnabled;
    this.nanoClock = b.nanoClock;
    this.writer = b.writer;
    this.extendedResourceClass = b.extendedResourceClass;
    this.events = b.events;
    this.nodeAllocatable = b.nodeAllocatable;
  }

  /** A plugin on {@code manager} with {@code args}; the rest defaults as {@link Builder} says. */
  public static Builder builder(DraManager manager, DynamicResourcesArgs args) {
    return new Builder(manager, args);
  }

  /**
   * The plugin's collaborators and feature gates. Defaults: DRASchedulerFilterTimeout on (as in
   * Kubernetes 1.36), the system nano clock, no writer, no extended resources, no events,
   * DRANodeAllocatableResources off.
   */
  public static final class Builder {
    private final DraManager manager;
    private final DynamicResourcesArgs args;
    private boolean filterTimeoutEnabled = true;
    private LongSupplier nanoClock = System::nanoTime;
    private ClaimWriter writer;
    private Function<String, String> extendedResourceClass = name -> null;
    private PodEvents events = PodEvents.NONE;
    private boolean nodeAllocatable;

    private Builder(DraManager manager, DynamicResourcesArgs args) {
      this.manager = manager;
      this.args = args;
    }

    /** Feature gate DRASchedulerFilterTimeout. */
    public Builder filterTimeoutEnabled(boolean enabled) {
      this.filterTimeoutEnabled = enabled;
      return this;
    }

    /** For the filter deadline. */
    public Builder nanoClock(LongSupplier clock) {
      this.nanoClock = clock;
      return this;
    }

    /**
     * The API calls of PreBind, Unreserve and PostFilter (none in pure unit tests: those extension
     * points then fail with an error).
     */
    public Builder writer(ClaimWriter w) {
      this.writer = w;
      return this;
    }

    /**
     * The DeviceClass backing an extended resource name, or null when none does or
     * DRAExtendedResource is off.
     */
    public Builder extendedResourceClass(Function<String, String> f) {
      this.extendedResourceClass = f;
      return this;
    }

    /** Where PreBind records {@code BindingConditionsPending}. */
    public Builder events(PodEvents e) {
      this.events = e;
      return this;
    }

    /**
     * Feature gate DRANodeAllocatableResources: devices' {@code nodeAllocatableResourceMappings}
     * count against the node's cpu, memory and hugepages.
     */
    public Builder nodeAllocatable(boolean enabled) {
      this.nodeAllocatable = enabled;
      return this;
    }

    public DynamicResources build() {
      return new DynamicResources(this);
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  public DraManager manager() {
    return manager;
  }

  /** Where claim creations and binding-condition waits are counted. */
  public void setMetrics(DraMetrics m) {
    metrics = m;
  }

  // ---- PreEnqueue ---------------------------------------------------------------------------

  @Override
  public Status preEnqueue(Pod pod) {
    if (!PodClaims.hasClaims(pod)) {
      return null;
    }
    if (PodClaims.resolve(pod, manager) instanceof PodClaims.Failed f) {
      return Status.unresolvable(f.message());
    }
    return null;
  }

  // ---- PreFilter ----------------------------------------------------------------------------

  @Override
  public Result preFilter(Ctx ctx, CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    Pod p = pod.pod();
    Map<String, Long> extended = ExtendedResourceClaims.podRequests(p, extendedResourceClass);
    if (!PodClaims.hasClaims(p) && extended.isEmpty()) {
      return Result.of(Status.skip());
    }
    PodClaims.Result r = PodClaims.resolve(p, manager);
    if (r instanceof PodClaims.Failed f) {
      return Result.of(Status.unresolvable(f.message()));
    }
    List<PodClaims.Entry> claims = ((PodClaims.Resolved) r).entries();
    int extendedIndex = -1;
    if (!extended.isEmpty()) {
      ResourceClaim ext = manager.extendedResourceClaim(p.getMetadata().getUid());
      claims = new ArrayList<>(claims);
      extendedIndex = claims.size();
      claims.add(new PodClaims.Entry(null, ext != null ? ext : ExtendedResourceClaims.inMemory(p)));
    }
    if (claims.isEmpty()) {
      return Result.of(Status.skip());
    }
    List<Integer> toAllocate = new ArrayList<>();
    for (int i = 0; i < claims.size(); i++) {
      ResourceClaim claim = claims.get(i).claim();
      if (isAllocated(claim)) {
        if (!ResourceClaims.isReservedForPod(p, claim) && !ResourceClaims.canBeReserved(claim)) {
          return Result.of(Status.unschedulable("resourceclaim in use"));
        }
        continue;
      }
      if (manager.claimHasPendingAllocation(claim.getMetadata().getUid())) {
        // A shared claim another pod is allocating right now: wait for its write.
        return Result.of(Status.unschedulable("resourceclaim is being allocated for another pod"));
      }
      if (i == extendedIndex) {
        toAllocate.add(i); // its requests are made per node in Filter
        continue;
      }
      Status classes = verifyClasses(claim);
      if (classes != null) {
        return Result.of(classes);
      }
      toAllocate.add(i);
    }
    Allocator allocator = null;
    List<ResourceClaim> claimsToAllocate = new ArrayList<>(toAllocate.size());
    for (int i : toAllocate) {
      claimsToAllocate.add(claims.get(i).claim());
    }
    if (!toAllocate.isEmpty()) {
      allocator =
          Allocator.create(manager.allocatedState(), manager.classLister(), manager.sliceIndex());
    }
    StateData s =
        new StateData(
            claims,
            indexes(toAllocate),
            // Immutable, so that the allocator takes it as it is on every node instead of copying.
            List.copyOf(claimsToAllocate),
            allocator,
            nodes.size());
    s.extendedIndex = extendedIndex;
    s.extendedRequests = extended;
    state.write(StateData.KEY, s);
    return Result.of(Status.success());
  }

  private static int[] indexes(List<Integer> list) {
    int[] out = new int[list.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = list.get(i);
    }
    return out;
  }

  /** Every class the claim's requests name must exist (upstream PreFilter). */
  private Status verifyClasses(ResourceClaim claim) {
    if (claim.getSpec() == null || claim.getSpec().getDevices() == null) {
      return null;
    }
    for (DeviceRequest req : claim.getSpec().getDevices().getRequests()) {
      if (req.getExactly() != null) {
        String cls = req.getExactly().getDeviceClassName();
        if (manager.getClass(cls).isEmpty()) {
          return Status.unresolvable(
              "request " + req.getName() + ": device class " + cls + " does not exist");
        }
      }
      if (req.getFirstAvailable() != null) {
        for (DeviceSubRequest sub : req.getFirstAvailable()) {
          if (manager.getClass(sub.getDeviceClassName()).isEmpty()) {
            return Status.unresolvable(
                "request "
                    + req.getName()
                    + "/"
                    + sub.getName()
                    + ": device class "
                    + sub.getDeviceClassName()
                    + " does not exist");
          }
        }
      }
    }
    return null;
  }

  // ---- Filter -------------------------------------------------------------------------------

  @Override
  public Status filter(Ctx ctx, CycleState state, PodInfo pod, NodeInfo nodeInfo) {
    StateData s = state.read(StateData.KEY, StateData.class);
    if (s == null) {
      return null;
    }
    Node node = nodeInfo.node();
    List<ResourceClaim> forNode = s.claimsToAllocate;
    if (s.extendedIndex >= 0) {
      ResourceClaim ext = s.claims.get(s.extendedIndex).claim();
      if (!ExtendedResourceClaims.isInMemory(ext)) {
        // Made by an earlier attempt that did not bind: PostFilter deletes it, then anew.
        return Status.unresolvable("cannot schedule extended resource claim");
      }
      switch (ExtendedResourceClaims.forNode(
          pod.pod(), ext, s.extendedRequests, extendedResourceClass, node)) {
        case ExtendedResourceClaims.CannotFit c -> {
          return Status.unschedulable("cannot fit resource " + c.resource());
        }
        case ExtendedResourceClaims.NoneViaDra n -> forNode = withExtended(s, ext, null);
        case ExtendedResourceClaims.ViaDra v -> {
          s.nodeExtendedClaims.put(nodeInfo.name(), v.claim());
          forNode = withExtended(s, ext, v.claim());
        }
      }
    }
    for (int i = 0; i < s.claims.size(); i++) {
      ResourceClaim claim = s.claims.get(i).claim();
      if (!isAllocated(claim)) {
        continue;
      }
      NodeSelector sel = claim.getStatus().getAllocation().getNodeSelector();
      if (sel != null && !NodeSelectors.matches(sel, node)
          || manager.features().deviceBindingAndStatus()
              && BindingConditions.unavailable(claim, ctx.clock().now(), args.bindingTimeout())) {
        s.unavailableClaims.add(i);
        return Status.unresolvable("resourceclaim not available on the node");
      }
    }
    if (s.allocator == null) {
      return null;
    }
    Deadline deadline =
        filterTimeoutEnabled && !args.filterTimeout().isZero()
            ? Deadline.after(args.filterTimeout(), nanoClock)
            : Deadline.none();
    AllocationOutcome outcome;
    try {
      outcome =
          forNode.isEmpty()
              ? new AllocationOutcome.Allocated(List.of())
              : s.allocator.allocate(node, nodeInfo.allocatorCache(), forNode, deadline);
    } catch (AllocationException e) {
      if (e.isNodeLocal()) {
        return Status.unschedulable(e.getMessage());
      }
      if (e.isDeadlineExceeded()) {
        return Status.error("timed out trying to allocate devices");
      }
      return Status.error(e);
    }
    if (outcome instanceof AllocationOutcome.Allocated a) {
      // The extended-resource claim needs nothing here: keep the positions aligned.
      int extendedPosition =
          forNode.size() < s.claimsToAllocate.size()
              ? s.claimsToAllocate.indexOf(s.claims.get(s.extendedIndex).claim())
              : -1;
      NodeResults results = new NodeResults(a, extendedPosition);
      if (nodeAllocatable) {
        Status fit = nodeAllocatableFit(s, pod, nodeInfo, results.get());
        if (fit != null) {
          return fit;
        }
      }
      s.nodeAllocations.put(nodeInfo.name(), results);
      return null;
    }
    AllocationOutcome.Unschedulable u = (AllocationOutcome.Unschedulable) outcome;
    s.explanations.put(nodeInfo.name(), u);
    if (ctx.logger().v(5).enabled()) {
      ctx.logger()
          .v(5)
          .info(
              "Cannot allocate claims on node",
              "pod",
              pod.key(),
              "node",
              nodeInfo.name(),
              "explanation",
              u.explanation().render());
    }
    return CANNOT_ALLOCATE;
  }

  /**
   * Upstream's {@code calculateAndCheckNodeAllocatableResources}: what the claims allocated here
   * take of the node's cpu, memory and hugepages, added to the pod's requests, must fit what the
   * node's pods leave; the amounts are kept for assume and PreBind.
   */
  private Status nodeAllocatableFit(
      StateData s, PodInfo pod, NodeInfo node, List<AllocationResult> results) {
    List<Map.Entry<String, ResourceClaim>> claims = new ArrayList<>();
    Map<String, AllocationResult> allocations = new java.util.HashMap<>();
    for (int k = 0; k < s.toAllocate.length; k++) {
      PodClaims.Entry e = s.claims.get(s.toAllocate[k]);
      if (results.get(k) == null || e.podClaim() == null) {
        continue; // the extended-resource claim maps no node resources
      }
      claims.add(Map.entry(e.podClaim().getName(), e.claim()));
      allocations.put(e.claim().getMetadata().getUid(), results.get(k));
    }
    if (claims.isEmpty()) {
      return null;
    }
    List<ResourceSlice> slices = manager.slices();
    List<NodeAllocatableClaims.ClaimStatus> statuses;
    try {
      statuses =
          NodeAllocatableClaims.statuses(
              pod.pod(), claims, allocations, r -> NodeAllocatableClaims.find(slices, r));
    } catch (IllegalStateException e) {
      return Status.error(e);
    }
    for (NodeAllocatableClaims.ClaimStatus st : statuses) {
      if (st.containers().isEmpty()) {
        return Status.unresolvable(
            "claim "
                + st.resourceClaimName()
                + ": node-allocatable resource claim not referenced by any container within the pod");
      }
    }
    List<String> reasons = NodeAllocatableClaims.insufficient(pod.request(), statuses, node);
    if (!reasons.isEmpty()) {
      return Status.unschedulable(reasons.toArray(String[]::new));
    }
    if (!statuses.isEmpty()) {
      s.nodeAllocatableStatuses.put(node.name(), statuses);
    }
    return null;
  }

  /**
   * The node-allocatable amounts Filter worked out for the node (upstream {@code
   * ExtractPodNodeAllocatableResourceClaimStatus}); the scheduler puts them into the status of the
   * pod it assumes, so that the node's requested resources include them at once.
   */
  public static List<NodeAllocatableClaims.ClaimStatus> nodeAllocatableStatuses(
      CycleState state, String nodeName) {
    StateData s = state.read(StateData.KEY, StateData.class);
    List<NodeAllocatableClaims.ClaimStatus> l =
        s == null ? null : s.nodeAllocatableStatuses.get(nodeName);
    return l == null ? List.of() : l;
  }

  /**
   * The claims to allocate on one node: the in-memory extended-resource claim replaced by the
   * node's variant, or left out when the node needs none.
   */
  private static List<ResourceClaim> withExtended(
      StateData s, ResourceClaim inMemory, ResourceClaim variant) {
    List<ResourceClaim> out = new ArrayList<>(s.claimsToAllocate.size());
    for (ResourceClaim c : s.claimsToAllocate) {
      if (c != inMemory) {
        out.add(c);
      } else if (variant != null) {
        out.add(variant);
      }
    }
    return out;
  }

  @Override
  public String explainFailure(CycleState state, PodInfo pod) {
    StateData s = state.read(StateData.KEY, StateData.class);
    if (s == null || s.explanations.isEmpty()) {
      return null;
    }
    return Explanations.summary(s.explanations.asMap());
  }

  /** Per node, why allocation failed in this attempt (for {@code jdra explain pod}). */
  public Map<String, io.jdra.allocator.Explanation> explanations(CycleState state) {
    StateData s = state.read(StateData.KEY, StateData.class);
    if (s == null) {
      return Map.of();
    }
    Map<String, io.jdra.allocator.Explanation> out = new java.util.HashMap<>();
    s.explanations.asMap().forEach((node, u) -> out.put(node, u.explanation()));
    return Map.copyOf(out);
  }

  /** Per node, the allocation results Filter found (claims without allocation, in pod order). */
  public Map<String, List<AllocationResult>> allocations(CycleState state) {
    StateData s = state.read(StateData.KEY, StateData.class);
    if (s == null) {
      return Map.of();
    }
    Map<String, List<AllocationResult>> out = new java.util.HashMap<>();
    s.nodeAllocations.forEach((node, r) -> out.put(node, r.get()));
    return Map.copyOf(out);
  }

  /** The claims the attempt allocates, in the order of {@link #allocations}. */
  public List<ResourceClaim> claimsToAllocate(CycleState state) {
    StateData s = state.read(StateData.KEY, StateData.class);
    return s == null ? List.of() : s.claimsToAllocate;
  }

  // ---- PostFilter ---------------------------------------------------------------------------

  @Override
  public Status postFilter(
      Ctx ctx, CycleState state, PodInfo pod, Map<String, Status> filteredNodes) {
    StateData s = state.read(StateData.KEY, StateData.class);
    if (s != null && s.extendedIndex >= 0 && writer != null) {
      ResourceClaim ext = s.claims.get(s.extendedIndex).claim();
      if (!ExtendedResourceClaims.isInMemory(ext)) {
        try {
          writer.deleteClaim(ctx, ext);
          return Status.unschedulable("deletion of ResourceClaim for extended resources completed");
        } catch (Exception e) {
          return Status.error(e);
        }
      }
    }
    if (s == null || s.unavailableClaims.isEmpty()) {
      return Status.unschedulable("no new claims to deallocate");
    }
    for (int i : s.unavailableClaims) {
      ResourceClaim claim = s.claims.get(i).claim();
      List<?> reserved = ResourceClaims.reservedFor(claim);
      boolean onlyThisPod =
          reserved.isEmpty()
              || (reserved.size() == 1 && ResourceClaims.isReservedForPod(pod.pod(), claim));
      if (!onlyThisPod || writer == null) {
        continue;
      }
      try {
        writer.deallocate(ctx, claim);
        return Status.unschedulable("deallocation of ResourceClaim completed");
      } catch (Exception e) {
        return Status.error(e);
      }
    }
    return Status.unschedulable("still not schedulable");
  }

  // ---- Score --------------------------------------------------------------------------------

  @Override
  public Status preScore(Ctx ctx, CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    StateData s = state.read(StateData.KEY, StateData.class);
    if (s == null || s.allocator == null) {
      return Status.skip();
    }
    for (ResourceClaim c : s.claimsToAllocate) {
      for (DeviceRequest r : c.getSpec().getDevices().getRequests()) {
        if (r.getFirstAvailable() != null && !r.getFirstAvailable().isEmpty()) {
          return Status.success();
        }
      }
    }
    return Status.skip();
  }

  /**
   * Upstream's prioritized-list score: for each request with {@code firstAvailable}, the subrequest
   * the node's allocation used at index i adds {@code 8 - i}.
   */
  @Override
  public long score(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node) {
    StateData s = state.read(StateData.KEY, StateData.class);
    NodeResults found = s == null ? null : s.nodeAllocations.get(node.name());
    if (found == null) {
      return 0;
    }
    List<AllocationResult> results = found.get();
    long score = 0;
    for (int c = 0; c < results.size(); c++) {
      if (results.get(c) != null) {
        score += claimScore(s.claimsToAllocate.get(c), results.get(c));
      }
    }
    return score;
  }

  static long claimScore(ResourceClaim claim, AllocationResult result) {
    long score = 0;
    for (DeviceRequest req : claim.getSpec().getDevices().getRequests()) {
      List<DeviceSubRequest> subs = req.getFirstAvailable();
      if (subs == null || subs.isEmpty()) {
        continue;
      }
      for (DeviceRequestAllocationResult r : result.getDevices().getResults()) {
        if (!req.getName().equals(RequestRefs.parentRequestName(r.getRequest()).orElse(""))) {
          continue;
        }
        String sub = RequestRefs.subRequestName(r.getRequest()).orElse("");
        for (int i = 0; i < subs.size(); i++) {
          if (subs.get(i).getName().equals(sub)) {
            score += FIRST_AVAILABLE_MAX_SIZE - i;
            break;
          }
        }
        break;
      }
    }
    return score;
  }

  @Override
  public void normalizeScore(CycleState state, PodInfo pod, long[] scores) {
    ScorePlugin.defaultNormalize(scores, false);
  }

  // ---- Reserve / Unreserve ------------------------------------------------------------------

  @Override
  public Status reserve(Ctx ctx, CycleState state, PodInfo pod, String nodeName) {
    StateData s = state.read(StateData.KEY, StateData.class);
    if (s == null) {
      return null;
    }
    ResourceClaim[] reserved = new ResourceClaim[s.claims.size()];
    if (s.toAllocate.length > 0) {
      NodeResults found = s.nodeAllocations.get(nodeName);
      if (found == null) {
        return Status.error("internal error: no allocation recorded for node " + nodeName);
      }
      List<AllocationResult> results = found.get();
      for (int k = 0; k < s.toAllocate.length; k++) {
        int i = s.toAllocate[k];
        ResourceClaim claim = s.claims.get(i).claim();
        if (i == s.extendedIndex) {
          if (results.get(k) == null) {
            continue; // device plugins provide the extended resources on this node
          }
          claim = s.nodeExtendedClaims.get(nodeName);
        }
        ResourceClaim allocated = withAllocation(claim, results.get(k));
        if (!manager.signalClaimPendingAllocation(pod.uid(), allocated)) {
          for (int j = 0; j < k; j++) {
            manager.removeClaimPendingAllocation(
                pod.uid(), s.claims.get(s.toAllocate[j]).claim().getMetadata().getUid());
          }
          return Status.unschedulable("resourceclaim is being allocated for another pod");
        }
        reserved[i] = allocated;
      }
    }
    s.reserved = reserved;
    return null;
  }

  /**
   * The claim with this allocation: a new claim and status object sharing the rest (metadata, spec,
   * the status's other fields) with the informer's, which nobody changes; a builder's deep copy of
   * the whole claim cost more than the allocation on the scheduling thread.
   */
  static ResourceClaim withAllocation(ResourceClaim claim, AllocationResult allocation) {
    ResourceClaimStatus status = ClaimCopies.status(claim.getStatus());
    status.setAllocation(allocation);
    return ClaimCopies.with(claim, claim.getMetadata(), status);
  }

  @Override
  public void unreserve(Ctx ctx, CycleState state, PodInfo pod, String nodeName) {
    StateData s = state.read(StateData.KEY, StateData.class);
    if (s == null) {
      return;
    }
    ResourceClaim created = s.createdExtendedClaim;
    if (created != null && writer != null) {
      // Upstream deletes the claim it made; the next attempt makes a new one.
      try {
        writer.deleteClaim(ctx, created);
      } catch (Exception ex) {
        ctx.logger()
            .error(ex, "Unreserve: deleting the extended-resource claim failed", "pod", pod.key());
      }
    }
    for (PodClaims.Entry e : s.claims) {
      ResourceClaim claim = e.claim();
      manager.removeClaimPendingAllocation(pod.uid(), claim.getMetadata().getUid());
      ResourceClaim current =
          manager
              .getClaim(claim.getMetadata().getNamespace(), claim.getMetadata().getName())
              .orElse(null);
      if (current != null
          && ResourceClaims.isReservedForPod(pod.pod(), current)
          && writer != null) {
        try {
          writer.removeReservation(ctx, current, pod.pod());
        } catch (Exception ex) {
          ctx.logger()
              .error(
                  ex,
                  "Unreserve: removing the pod from the claim's reservedFor failed",
                  "pod",
                  pod.key(),
                  "claim",
                  DraManager.key(current));
          manager.assumedClaimRestore(
              current.getMetadata().getNamespace(), current.getMetadata().getName());
        }
      }
    }
  }

  // ---- PreBind ------------------------------------------------------------------------------

  @Override
  public Status preBindPreFlight(Ctx ctx, CycleState state, PodInfo pod, String nodeName) {
    return state.read(StateData.KEY, StateData.class) == null ? Status.skip() : Status.success();
  }

  @Override
  public Status preBind(Ctx ctx, CycleState state, PodInfo pod, String nodeName) {
    StateData s = state.read(StateData.KEY, StateData.class);
    if (s == null) {
      return null;
    }
    if (writer == null) {
      return Status.error("DynamicResources has no API client");
    }
    List<ResourceClaim> written = new ArrayList<>(s.claims.size());
    for (int i = 0; i < s.claims.size(); i++) {
      PodClaims.Entry e = s.claims.get(i);
      ResourceClaim allocated = s.reserved == null ? null : s.reserved[i];
      if (allocated != null && manager.features().deviceBindingAndStatus()) {
        allocated = BindingConditions.withAllocationTimestamp(allocated, ctx.clock().now());
      }
      if (i == s.extendedIndex) {
        if (allocated == null) {
          continue; // nothing through DRA on this node
        }
        try {
          written.add(bindExtendedClaim(ctx, s, allocated, pod.pod()));
        } catch (Exception ex) {
          return Status.error(
              new RuntimeException("create claim for extended resources: " + ex.getMessage(), ex));
        }
        continue;
      }
      try {
        ResourceClaim w = writer.bindClaim(ctx, e.claim(), allocated, pod.pod(), e.podClaim());
        manager.assumeClaimAfterApiCall(w);
        written.add(w);
      } catch (Exception ex) {
        return Status.error(
            new RuntimeException(
                "binding claim " + DraManager.key(e.claim()) + ": " + ex.getMessage(), ex));
      }
    }
    List<NodeAllocatableClaims.ClaimStatus> na = s.nodeAllocatableStatuses.get(nodeName);
    if (na != null) {
      try {
        writer.setNodeAllocatableResourceClaimStatuses(ctx, pod.pod(), na);
      } catch (Exception ex) {
        return Status.error(
            new RuntimeException(
                "writing nodeAllocatableResourceClaimStatuses: " + ex.getMessage(), ex));
      }
    }
    if (manager.features().deviceBindingAndStatus() && BindingConditions.any(written)) {
      events.event(
          pod.pod(),
          "Normal",
          "BindingConditionsPending",
          "Scheduling",
          "waiting for binding conditions for device on node " + nodeName);
      java.time.Instant began = ctx.clock().now();
      Status waited = BindingConditions.await(ctx, manager, written, args.bindingTimeout());
      Duration took = Duration.between(began, ctx.clock().now());
      String result = waited == null ? "success" : "failure";
      for (String driver : BindingConditions.drivers(written)) {
        metrics.bindingConditions(driver, result, took);
      }
      return waited;
    }
    return null;
  }

  /**
   * Creates the pod's extended-resource claim (named from its generateName), records the allocation
   * and reservation as for any claim, then tells the kubelet through {@code
   * pod.status.extendedResourceClaimStatus} which container gets which request.
   */
  private ResourceClaim bindExtendedClaim(Ctx ctx, StateData s, ResourceClaim allocated, Pod pod)
      throws Exception {
    String tempUid = allocated.getMetadata().getUid();
    ResourceClaim created;
    try {
      created = writer.createClaim(ctx, allocated);
      metrics.claimCreate("success");
    } catch (Exception e) {
      metrics.claimCreate("failure");
      throw e;
    }
    s.createdExtendedClaim = created;
    ResourceClaim withAllocation =
        new ResourceClaimBuilder(created)
            .editOrNewStatus()
            .withAllocation(allocated.getStatus().getAllocation())
            .endStatus()
            .build();
    ResourceClaim w = writer.bindClaim(ctx, created, withAllocation, pod, null);
    manager.assumeClaimAfterApiCall(w);
    manager.removeClaimPendingAllocation(pod.getMetadata().getUid(), tempUid);
    writer.setExtendedResourceClaimStatus(
        ctx, pod, w.getMetadata().getName(), ExtendedResourceClaims.requestMappings(w, pod));
    ctx.logger()
        .v(5)
        .info(
            "Created claim for extended resources",
            "pod",
            pod.getMetadata().getName(),
            "claim",
            DraManager.key(w));
    return w;
  }

  // ---- Events -------------------------------------------------------------------------------

  @Override
  public List<QueueingHint.EventWithHint> eventsToRegister() {
    return List.of(
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.NODE,
                ClusterEvent.ADD
                    | ClusterEvent.UPDATE_NODE_LABEL
                    | ClusterEvent.UPDATE_NODE_ALLOCATABLE,
                "NodeChange"),
            null),
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.RESOURCE_CLAIM,
                ClusterEvent.ADD | ClusterEvent.UPDATE | ClusterEvent.DELETE,
                "ResourceClaimChange"),
            this::isSchedulableAfterClaimChange,
            ClaimChangeNarrowing.INSTANCE),
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.TARGET_POD,
                ClusterEvent.UPDATE_POD_GENERATED_RESOURCE_CLAIM,
                "PodGeneratedResourceClaim"),
            null),
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.DEVICE_CLASS,
                ClusterEvent.ADD | ClusterEvent.UPDATE,
                "DeviceClassChange"),
            null),
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.RESOURCE_SLICE,
                ClusterEvent.ADD | ClusterEvent.UPDATE,
                "ResourceSliceChange"),
            null),
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.DEVICE_TAINT_RULE,
                ClusterEvent.ADD | ClusterEvent.UPDATE | ClusterEvent.DELETE,
                "DeviceTaintRuleChange"),
            null));
  }

  /**
   * Upstream isSchedulableAfterClaimChange: a claim of the pod appeared or changed, or any claim
   * was deallocated or deleted while allocated (devices were freed).
   */
  QueueingHint isSchedulableAfterClaimChange(Pod pod, Object oldObj, Object newObj) {
    ResourceClaim oldC = (ResourceClaim) oldObj;
    ResourceClaim newC = (ResourceClaim) newObj;
    if (newC == null) {
      return oldC != null && isAllocated(oldC) ? QueueingHint.QUEUE : QueueingHint.SKIP;
    }
    if (oldC != null && isAllocated(oldC) && !isAllocated(newC)) {
      return QueueingHint.QUEUE;
    }
    // Asked for every waiting pod on every claim change: the pod's claim names only when the
    // namespace matches, and without collecting them.
    if (!newC.getMetadata().getNamespace().equals(pod.getMetadata().getNamespace())
        || !PodClaims.uses(pod, newC.getMetadata().getName())) {
      return QueueingHint.SKIP;
    }
    if (oldC == null) {
      return QueueingHint.QUEUE;
    }
    // Only status or metadata noise from others (e.g. a driver's finalizer) cannot help.
    boolean specSame = java.util.Objects.equals(oldC.getSpec(), newC.getSpec());
    boolean statusSame = java.util.Objects.equals(oldC.getStatus(), newC.getStatus());
    boolean deletionSame =
        java.util.Objects.equals(
            oldC.getMetadata().getDeletionTimestamp(), newC.getMetadata().getDeletionTimestamp());
    return specSame && statusSame && deletionSame ? QueueingHint.SKIP : QueueingHint.QUEUE;
  }

  static boolean isAllocated(ResourceClaim c) {
    return c.getStatus() != null && c.getStatus().getAllocation() != null;
  }

  static Duration pollInterval() {
    return BindingConditions.POLL_INTERVAL;
  }
}
