package io.jdra.controllers.devicetainteviction;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRule;
import io.jdra.api.resourceclaim.DeviceTaintSelectors;
import io.jdra.api.resourceclaim.DeviceTolerations;
import io.jdra.api.resourceclaim.PodClaimName;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.controllers.devicetainteviction.WorkItem.PodItem;
import io.jdra.controllers.devicetainteviction.WorkItem.RuleItem;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.logging.Logger;
import io.jdra.runtime.workqueue.DelayingQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The controller's knowledge: current slices by pool, allocated claims with their eviction times,
 * the DeviceTaintRules, and {@code deletePodAt}, the source of truth for which pod must be deleted
 * when. The {@code handle*} methods are the informer event handlers of upstream's controller: they
 * compute, enqueue and emit events, and never block. The methods for workers only read and record.
 *
 * <p>Thread-safe: every method synchronizes on this object; nothing here calls the API server, so
 * no lock is ever held across an API call.
 */
final class EvictionTracker {
  /** A namespaced claim name. */
  record ClaimKey(String namespace, String name) {
    static ClaimKey of(ResourceClaim c) {
      return new ClaimKey(c.getMetadata().getNamespace(), c.getMetadata().getName());
    }
  }

  private final Logger logger;
  private final Clock clock;
  private final Lister<Pod> pods;
  private final DelayingQueue<WorkItem> queue;
  private final PodEvents events;
  private final boolean extendedResources;

  private final Pools pools = new Pools();
  private final Map<ClaimKey, AllocatedClaim> allocatedClaims = new HashMap<>();
  private final Map<String, DeviceTaintRule> rules = new LinkedHashMap<>();
  private final Map<PodRef, Eviction> deletePodAt = new HashMap<>();
  private final Map<String, Long> evictedPerRule = new HashMap<>();
  private final Set<PodRef> markedForDeletion = new HashSet<>();

  EvictionTracker(
      Logger logger,
      Clock clock,
      Lister<Pod> pods,
      DelayingQueue<WorkItem> queue,
      PodEvents events,
      boolean extendedResources) {
    this.logger = logger;
    this.clock = clock;
    this.pods = pods;
    this.queue = queue;
    this.events = events;
    this.extendedResources = extendedResources;
  }

  // ---- informer events -------------------------------------------------------------------

  synchronized void handleSliceChange(ResourceSlice oldSlice, ResourceSlice newSlice) {
    ResourceSlice slice = newSlice != null ? newSlice : oldSlice;
    Set<String> changed = pools.update(oldSlice, newSlice);
    if (changed.isEmpty()) {
      return;
    }
    Pools.PoolId pool = Pools.poolId(slice);
    for (var e : List.copyOf(allocatedClaims.entrySet())) {
      AllocatedClaim ac = e.getValue();
      if (!usesDevice(ac.claim(), pool, changed)) {
        continue;
      }
      Eviction eviction = claimEviction(ac.claim(), null);
      if (Objects.equals(eviction, ac.eviction())) {
        continue;
      }
      allocatedClaims.put(e.getKey(), new AllocatedClaim(ac.claim(), eviction));
      handlePods(ac.claim());
    }
  }

  synchronized void handleClaimChange(ResourceClaim oldClaim, ResourceClaim newClaim) {
    ResourceClaim claim = newClaim != null ? newClaim : oldClaim;
    ClaimKey key = ClaimKey.of(claim);
    if (newClaim == null) {
      allocatedClaims.remove(key);
      handlePods(oldClaim);
      return;
    }
    if (oldClaim == null) {
      if (allocated(newClaim)) {
        allocatedClaims.put(key, new AllocatedClaim(newClaim, claimEviction(newClaim, null)));
        handlePods(newClaim);
      }
      return;
    }
    if (!Objects.equals(oldClaim.getMetadata().getUid(), newClaim.getMetadata().getUid())) {
      handleClaimChange(oldClaim, null);
      handleClaimChange(null, newClaim);
      return;
    }
    if (allocated(newClaim)) {
      AllocatedClaim known = allocatedClaims.get(key);
      // The allocation is immutable: an existing eviction time stays valid.
      Eviction eviction =
          allocated(oldClaim) && known != null ? known.eviction() : claimEviction(newClaim, null);
      allocatedClaims.put(key, new AllocatedClaim(newClaim, eviction));
    } else if (allocated(oldClaim)) {
      allocatedClaims.remove(key);
    } else {
      return;
    }
    if (!reservedFor(oldClaim).equals(reservedFor(newClaim))) {
      handlePods(oldClaim);
    }
    handlePods(newClaim);
  }

  synchronized void handlePodChange(Pod oldPod, Pod newPod) {
    if (newPod == null) {
      // Gone: nothing left to do for it, and no event for an object that no longer exists.
      PodRef ref = PodRef.of(oldPod);
      deletePodAt.remove(ref);
      markedForDeletion.remove(ref);
      return;
    }
    // Pods change often; only a change of node or claims can change the eviction, and checking
    // only then also ignores the update that adds the DisruptionTarget condition.
    if (oldPod != null
        && Objects.equals(nodeName(oldPod), nodeName(newPod))
        && Objects.equals(claimStatuses(oldPod), claimStatuses(newPod))
        && Objects.equals(extendedClaimName(oldPod), extendedClaimName(newPod))) {
      return;
    }
    handlePod(newPod);
  }

  synchronized void handleRuleChange(DeviceTaintRule oldRule, DeviceTaintRule newRule) {
    DeviceTaintRule rule = newRule != null ? newRule : oldRule;
    String name = rule.getMetadata().getName();
    if (newRule == null) {
      rules.remove(name);
      evictedPerRule.remove(oldRule.getMetadata().getUid());
    } else {
      rules.put(name, newRule);
    }
    if (oldRule == null || newRule != null && generationChanged(oldRule, newRule)) {
      // Report at least once per spec generation.
      queue.add(ruleItem(newRule));
    }
    if (oldRule != null
        && newRule != null
        && Objects.equals(oldRule.getMetadata().getUid(), newRule.getMetadata().getUid())
        && Objects.equals(oldRule.getSpec(), newRule.getSpec())) {
      return;
    }
    // Rule changes are rare: re-evaluate every allocated claim.
    for (var e : List.copyOf(allocatedClaims.entrySet())) {
      AllocatedClaim ac = e.getValue();
      Eviction eviction = claimEviction(ac.claim(), null);
      allocatedClaims.put(e.getKey(), new AllocatedClaim(ac.claim(), eviction));
      if (!Objects.equals(eviction, ac.eviction())) {
        handlePods(ac.claim());
      }
    }
  }

  private static boolean generationChanged(DeviceTaintRule a, DeviceTaintRule b) {
    return !Objects.equals(a.getMetadata().getGeneration(), b.getMetadata().getGeneration());
  }

  /**
   * Every pod listed in the claim's {@code reservedFor} is re-checked. A stale entry (pod gone, or
   * re-created with another UID) is skipped and the others still get checked (upstream #135686).
   */
  private void handlePods(ResourceClaim claim) {
    String ns = claim.getMetadata().getNamespace();
    for (ResourceClaimConsumerReference consumer : reservedFor(claim)) {
      if (!ResourceClaims.isPodReference(consumer)) {
        continue;
      }
      Pod pod = pods.get(ns, consumer.getName()).orElse(null);
      if (pod == null || !Objects.equals(pod.getMetadata().getUid(), consumer.getUid())) {
        continue;
      }
      handlePod(pod);
    }
  }

  private void handlePod(Pod pod) {
    PodRef ref = PodRef.of(pod);
    Eviction eviction = podEviction(pod, null);
    if (eviction == null) {
      if (deletePodAt.remove(ref) != null) {
        markedForDeletion.remove(ref);
        events.emit(ref, PodEvents.CANCELLING);
        logger.v(3).info("Canceled pod eviction", "pod", ref);
      }
      return;
    }
    logger.v(3).info("Going to evict pod", "pod", ref, "eviction", eviction);
    deletePodAt.put(ref, eviction);
    queue.addAfter(new PodItem(ref), positive(Duration.between(clock.now(), eviction.when())));
    // Eviction because of a rule is in progress: its status may need an update.
    for (TrackedTaint reason : eviction.reasons()) {
      if (reason.isRule()) {
        queue.add(new RuleItem(reason.ruleName(), reason.ruleUid()));
      }
    }
  }

  // ---- eviction times ----------------------------------------------------------------------

  /**
   * The earliest eviction over the pod's allocated claims that are reserved for it (through {@code
   * spec.resourceClaims} or, for extended resources backed by DRA, {@code
   * status.extendedResourceClaimStatus}: upstream #141290), or null. Unscheduled pods are never
   * evicted. With {@code simulate}, claim evictions are computed afresh as if that rule existed.
   */
  private Eviction podEviction(Pod pod, DeviceTaintRule simulate) {
    if (nodeName(pod) == null) {
      return null;
    }
    Eviction eviction = null;
    String ns = pod.getMetadata().getNamespace();
    for (PodResourceClaim podClaim : pod.getSpec().getResourceClaims()) {
      if (!(ResourceClaims.name(pod, podClaim) instanceof PodClaimName.Named named)) {
        continue;
      }
      eviction =
          merge(
              eviction, claimEvictionFor(pod, ns, named.name(), named.mustCheckOwner(), simulate));
    }
    String extended = extendedResources ? extendedClaimName(pod) : null;
    if (extended != null && !extended.isEmpty()) {
      eviction = merge(eviction, claimEvictionFor(pod, ns, extended, true, simulate));
    }
    return eviction;
  }

  private Eviction claimEvictionFor(
      Pod pod, String ns, String claimName, boolean mustCheckOwner, DeviceTaintRule simulate) {
    AllocatedClaim ac = allocatedClaims.get(new ClaimKey(ns, claimName));
    if (ac == null
        || mustCheckOwner && !ResourceClaims.isForPod(pod, ac.claim())
        || !ResourceClaims.isReservedForPod(pod, ac.claim())) {
      return null;
    }
    return simulate == null ? ac.eviction() : claimEviction(ac.claim(), simulate);
  }

  private static Eviction merge(Eviction a, Eviction b) {
    return a == null ? b : a.merge(b);
  }

  /**
   * When pods using the claim must go: over all allocated devices and their NoExecute taints (from
   * the device in its current slice and from matching rules), the earliest {@code timeAdded} plus
   * toleration; taints tolerated forever do not count. Null if nothing evicts.
   */
  private Eviction claimEviction(ResourceClaim claim, DeviceTaintRule simulate) {
    Instant when = null;
    TreeSet<TrackedTaint> reasons = new TreeSet<>();
    for (DeviceRequestAllocationResult result : results(claim)) {
      for (TrackedTaint taint : evictingTaints(result, simulate)) {
        Instant t = evictionTime(taint, result);
        if (t == null) {
          continue;
        }
        reasons.add(taint);
        if (when == null || t.isBefore(when)) {
          when = t;
        }
      }
    }
    if (when == null) {
      return null;
    }
    logger
        .v(5)
        .info("Claim is affected by device taint", "claim", ClaimKey.of(claim), "eviction", when);
    return new Eviction(when, List.copyOf(reasons));
  }

  private Instant evictionTime(TrackedTaint taint, DeviceRequestAllocationResult result) {
    try {
      return DeviceTolerations.evictionTime(taint.taint(), result.getTolerations()).orElse(null);
    } catch (IllegalArgumentException e) {
      // The API server always sets timeAdded; without one the taint is treated as old.
      logger.error(e, "Device taint without usable timeAdded, evicting at once", "taint", taint);
      return Instant.EPOCH;
    }
  }

  private List<TrackedTaint> evictingTaints(
      DeviceRequestAllocationResult result, DeviceTaintRule simulate) {
    List<TrackedTaint> out = new ArrayList<>();
    Pools.SliceDevice sd = pools.device(result.getDriver(), result.getPool(), result.getDevice());
    if (sd != null) {
      List<DeviceTaint> taints = sd.device().getTaints();
      for (int i = 0; i < taints.size(); i++) {
        if (DeviceTolerations.EFFECT_NO_EXECUTE.equals(taints.get(i).getEffect())) {
          out.add(
              TrackedTaint.fromSlice(
                  sd.slice().getMetadata().getName(),
                  result.getDriver(),
                  result.getPool(),
                  result.getDevice(),
                  i,
                  taints.get(i)));
        }
      }
    }
    List<DeviceTaintRule> candidates = new ArrayList<>(rules.values());
    if (simulate != null) {
      candidates.removeIf(r -> r.getMetadata().getName().equals(simulate.getMetadata().getName()));
      candidates.add(simulate);
    }
    for (DeviceTaintRule rule : candidates) {
      if (RuleConditions.effect(rule).equals(DeviceTolerations.EFFECT_NO_EXECUTE)
          && DeviceTaintSelectors.matches(
              DeviceTaintSelectors.Selector.of(rule.getSpec().getDeviceSelector()),
              result.getDriver(),
              result.getPool(),
              result.getDevice())) {
        out.add(
            TrackedTaint.fromRule(
                rule.getMetadata().getName(),
                rule.getMetadata().getUid(),
                DeviceTaintSelectors.taint(rule.getSpec().getTaint())));
      }
    }
    return out;
  }

  // ---- for workers ---------------------------------------------------------------------------

  /** The pending eviction of this pod, or null when none is planned (any more). */
  synchronized Eviction pendingEviction(PodRef pod) {
    return deletePodAt.get(pod);
  }

  /**
   * Records that the pod is about to be marked for deletion; true the first time, so that exactly
   * one event is emitted per pod even when deletion is retried.
   */
  synchronized boolean markForDeletion(PodRef pod) {
    return markedForDeletion.add(pod);
  }

  /**
   * The eviction of the pod is over: it was deleted by this controller ({@code deleted}) or is gone
   * or terminating anyway. Rules among the reasons get their count bumped and a status update after
   * {@code statusDelay} (not at once: the informer would not have seen the deletion yet).
   */
  synchronized void evictionDone(
      PodRef pod, Eviction eviction, boolean deleted, Duration statusDelay) {
    deletePodAt.remove(pod);
    markedForDeletion.remove(pod);
    if (!deleted) {
      return;
    }
    for (TrackedTaint reason : eviction.reasons()) {
      if (reason.isRule()) {
        evictedPerRule.merge(reason.ruleUid(), 1L, Long::sum);
        queue.addAfter(new RuleItem(reason.ruleName(), reason.ruleUid()), statusDelay);
      }
    }
  }

  /** The tracked rule with this name and UID, or null. */
  synchronized DeviceTaintRule rule(RuleItem item) {
    DeviceTaintRule rule = rules.get(item.name());
    return rule != null && Objects.equals(rule.getMetadata().getUid(), item.uid()) ? rule : null;
  }

  /** The numbers a rule's EvictionInProgress condition reports. */
  synchronized RuleConditions.Counts counts(DeviceTaintRule rule) {
    String uid = rule.getMetadata().getUid();
    long evicted = evictedPerRule.getOrDefault(uid, 0L);
    String effect = RuleConditions.effect(rule);
    if (DeviceTolerations.EFFECT_NO_EXECUTE.equals(effect)) {
      long[] pending = pendingPods(uid, null);
      return new RuleConditions.Counts(0, 0, pending[0], pending[1], evicted);
    }
    if (DeviceTolerations.EFFECT_NONE.equals(effect)) {
      // Simulate NoExecute on a copy of the rule; the real state stays untouched.
      DeviceTaintRule asNoExecute =
          rule.edit()
              .editSpec()
              .editTaint()
              .withEffect(DeviceTolerations.EFFECT_NO_EXECUTE)
              .endTaint()
              .endSpec()
              .build();
      long[] pending = pendingPods(uid, asNoExecute);
      long[] devices = selectedDevices(rule);
      return new RuleConditions.Counts(devices[0], devices[1], pending[0], pending[1], evicted);
    }
    return new RuleConditions.Counts(0, 0, 0, 0, evicted);
  }

  /** Pods not yet terminating whose eviction the rule causes, and in how many namespaces. */
  private long[] pendingPods(String ruleUid, DeviceTaintRule simulate) {
    long n = 0;
    Set<String> namespaces = new HashSet<>();
    for (Pod pod : pods.list()) {
      if (pod.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      Eviction e = podEviction(pod, simulate);
      if (e != null && e.causedByRule(ruleUid)) {
        n++;
        namespaces.add(pod.getMetadata().getNamespace());
      }
    }
    return new long[] {n, namespaces.size()};
  }

  /** Published devices (current slices) and allocated devices the rule selects. */
  private long[] selectedDevices(DeviceTaintRule rule) {
    var selector = DeviceTaintSelectors.Selector.of(rule.getSpec().getDeviceSelector());
    long published = 0;
    for (var d : pools.allDevices()) {
      if (DeviceTaintSelectors.matches(
          selector, d.getKey().driver(), d.getKey().pool(), d.getValue())) {
        published++;
      }
    }
    long allocated = 0;
    for (AllocatedClaim ac : allocatedClaims.values()) {
      for (DeviceRequestAllocationResult r : results(ac.claim())) {
        if (DeviceTaintSelectors.matches(selector, r.getDriver(), r.getPool(), r.getDevice())) {
          allocated++;
        }
      }
    }
    return new long[] {published, allocated};
  }

  // ---- snapshots for tests -------------------------------------------------------------------

  synchronized Map<PodRef, Eviction> deletePodAt() {
    return Map.copyOf(deletePodAt);
  }

  /** Allocated claims by key, with their eviction (empty Optional-like null values avoided). */
  synchronized Map<ClaimKey, AllocatedClaim> allocatedClaims() {
    return Map.copyOf(allocatedClaims);
  }

  synchronized Map<String, Long> evictedPerRule() {
    return Map.copyOf(evictedPerRule);
  }

  synchronized List<ResourceSlice> slices() {
    return pools.slices();
  }

  // ---- helpers -------------------------------------------------------------------------------

  private static RuleItem ruleItem(DeviceTaintRule rule) {
    return new RuleItem(rule.getMetadata().getName(), rule.getMetadata().getUid());
  }

  private static Duration positive(Duration d) {
    return d.isNegative() ? Duration.ZERO : d;
  }

  private static boolean allocated(ResourceClaim claim) {
    return claim.getStatus() != null && claim.getStatus().getAllocation() != null;
  }

  private static List<DeviceRequestAllocationResult> results(ResourceClaim claim) {
    var allocation = claim.getStatus().getAllocation();
    if (allocation.getDevices() == null || allocation.getDevices().getResults() == null) {
      return List.of();
    }
    return allocation.getDevices().getResults();
  }

  private static List<ResourceClaimConsumerReference> reservedFor(ResourceClaim claim) {
    return ResourceClaims.reservedFor(claim);
  }

  private static boolean usesDevice(ResourceClaim claim, Pools.PoolId pool, Set<String> devices) {
    for (DeviceRequestAllocationResult r : results(claim)) {
      if (pool.driver().equals(r.getDriver())
          && pool.pool().equals(r.getPool())
          && devices.contains(r.getDevice())) {
        return true;
      }
    }
    return false;
  }

  private static String nodeName(Pod pod) {
    String n = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    return n == null || n.isEmpty() ? null : n;
  }

  private static Object claimStatuses(Pod pod) {
    return pod.getStatus() == null ? List.of() : pod.getStatus().getResourceClaimStatuses();
  }

  private static String extendedClaimName(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getExtendedResourceClaimStatus() == null) {
      return null;
    }
    return pod.getStatus().getExtendedResourceClaimStatus().getResourceClaimName();
  }
}
