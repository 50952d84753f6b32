package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.internal.Allocation;
import java.util.List;

/**
 * The structured allocator (upstream {@code structured.Allocator}): decides which devices a set of
 * claims gets on a node. Created for one snapshot of classes, slices (with DeviceTaintRules already
 * applied, see {@link DeviceTaintRules}) and allocated state; {@link #allocate} may then be called
 * for many nodes, also concurrently: instances are immutable and thread-safe.
 *
 * <p>Results match upstream Kubernetes: pools by driver then name (pools with binding conditions
 * last), slices by name, devices in slice order, the first solution of upstream's depth-first
 * search. Where upstream's search is exponential, jdra prunes provably hopeless branches, which
 * gives the same answer sooner.
 */
public interface Allocator {

  /**
   * Allocates the claims together, as for one pod, on {@code node}.
   *
   * @param node the node (name and labels); null means no node, so node-local devices never fit
   * @param claims claims without allocation, in order; none is modified
   * @param deadline when to give up
   * @return one AllocationResult per claim, or an explanation of why they cannot be allocated
   * @throws AllocationException for errors that are not "does not fit": unknown class, CEL error,
   *     unsupported request, disabled feature, limits, invalid pools without a solution, deadline;
   *     {@link AllocationException#isNodeLocal()} and {@link
   *     AllocationException#isDeadlineExceeded()} mark those that concern only this node
   */
  AllocationOutcome allocate(Node node, List<ResourceClaim> claims, Deadline deadline)
      throws AllocationException;

  /**
   * As {@link #allocate(Node, List, Deadline)}, with what earlier calls on this node kept in {@code
   * cache} (one per node name, see {@link NodeCache}); the outcome is the same.
   */
  default AllocationOutcome allocate(
      Node node, NodeCache cache, List<ResourceClaim> claims, Deadline deadline)
      throws AllocationException {
    return allocate(node, claims, deadline);
  }

  /**
   * An allocator that evaluates selectors with jdra-cel, in the environment for stored expressions
   * with list-type attributes and consumable capacity as {@code features} say.
   */
  static Allocator create(
      AllocatorFeatures features,
      AllocatedState allocatedState,
      DeviceClassLister classes,
      List<ResourceSlice> slices) {
    return create(allocatedState, classes, SliceIndex.of(features, slices));
  }

  /**
   * As {@link #create(AllocatorFeatures, AllocatedState, DeviceClassLister, List)}, on an index.
   */
  static Allocator create(
      AllocatedState allocatedState, DeviceClassLister classes, SliceIndex slices) {
    Allocation.Inputs inputs =
        new Allocation.Inputs(
            slices.features, allocatedState, classes, slices.slices, Allocation.DEFAULT_BUDGET);
    Allocation.PerAllocator kept = new Allocation.PerAllocator();
    return new Allocator() {
      @Override
      public AllocationOutcome allocate(Node node, List<ResourceClaim> claims, Deadline deadline)
          throws AllocationException {
        return Allocation.run(inputs, kept, node, null, List.copyOf(claims), deadline);
      }

      @Override
      public AllocationOutcome allocate(
          Node node, NodeCache cache, List<ResourceClaim> claims, Deadline deadline)
          throws AllocationException {
        return Allocation.run(inputs, kept, node, cache, List.copyOf(claims), deadline);
      }
    };
  }
}
