package io.jdra.scheduler.plugins.dynamicresources;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.allocator.Allocator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What DynamicResources keeps in the CycleState for one attempt (upstream {@code stateData}).
 * Written in PreFilter; Filter threads add to the concurrent maps; Reserve sets {@link #reserved}.
 */
final class StateData {
  static final String KEY = "DynamicResources";

  /** Presized for this many feasible nodes at most; larger clusters grow the map as needed. */
  static final int MAX_PRESIZED_NODES = 256;

  /** The pod's claims in spec order (claims generated for extended resources last). */
  final List<PodClaims.Entry> claims;

  /** Indexes into {@link #claims} of claims without allocation. */
  final int[] toAllocate;

  /** The claims without allocation, in that order (the allocator's input). */
  final List<ResourceClaim> claimsToAllocate;

  /** Null when nothing needs allocating. */
  final Allocator allocator;

  /**
   * Node name -> allocation results of {@link #claimsToAllocate}, from Filter: one entry per
   * feasible node (upstream's adaptive percentage evaluates up to hundreds), so the map is made big
   * enough up front instead of being resized five times during Filter.
   */
  final Map<String, NodeResults> nodeAllocations;

  /**
   * Node name -> why allocation failed there, from Filter (for the FailedScheduling message; each
   * explanation is worked out only if read). With devices in use hundreds of nodes per pod are
   * rejected, so these go to array slots, made into a map only when read.
   */
  final Rejections explanations;

  /** Indexes of allocated claims that some node rejected (PostFilter may deallocate one). */
  final Set<Integer> unavailableClaims = ConcurrentHashMap.newKeySet();

  /** Index in {@link #claims} of the extended-resource claim, or -1 when the pod has none. */
  int extendedIndex = -1;

  /** The pod's DRA-backed extended resources and how many of each (empty when none). */
  Map<String, Long> extendedRequests = Map.of();

  /** Node name -> that node's variant of the extended-resource claim, from Filter. */
  final Map<String, ResourceClaim> nodeExtendedClaims = new ConcurrentHashMap<>();

  /**
   * Node name -> what the claims allocated there take of the node's cpu, memory and hugepages
   * (DRANodeAllocatableResources), from Filter; absent when nothing.
   */
  final Map<String, List<NodeAllocatableClaims.ClaimStatus>> nodeAllocatableStatuses =
      new ConcurrentHashMap<>();

  /** The extended-resource claim PreBind created, for Unreserve to delete; else null. */
  volatile ResourceClaim createdExtendedClaim;

  /** Claims with the allocation chosen in Reserve, by index; null before Reserve. */
  volatile ResourceClaim[] reserved;

  StateData(
      List<PodClaims.Entry> claims,
      int[] toAllocate,
      List<ResourceClaim> claimsToAllocate,
      Allocator allocator,
      int nodes) {
    this.nodeAllocations = new ConcurrentHashMap<>(Math.min(nodes, MAX_PRESIZED_NODES));
    this.explanations = new Rejections(nodes);
    this.claims = claims;
    this.toAllocate = toAllocate;
    this.claimsToAllocate = claimsToAllocate;
    this.allocator = allocator;
  }
}
