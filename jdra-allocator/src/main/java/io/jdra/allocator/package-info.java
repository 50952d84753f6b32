/**
 * The structured DRA allocator: which devices a set of claims gets on a node.
 *
 * <p>{@link io.jdra.allocator.Allocator#create} takes a snapshot (feature gates, devices already
 * allocated, DeviceClasses, ResourceSlices with {@link io.jdra.allocator.DeviceTaintRules} applied)
 * and {@link io.jdra.allocator.Allocator#allocate} answers for one node: one AllocationResult per
 * claim, an {@link io.jdra.allocator.Explanation} of why not, or an {@link
 * io.jdra.allocator.AllocationException} for errors. A pure function: no client, no threads, no
 * I/O; instances are immutable and may serve many nodes at once.
 *
 * <p>Semantics and choices follow Kubernetes 1.36's allocator (the most complete upstream variant,
 * "experimental"): pools by driver and name with binding-condition pools last, slices by name,
 * devices in slice order, the devices of one request in increasing order, first solution of the
 * depth-first search. Deliberate differences, all where upstream is wrong or slow: rejected
 * candidates never leave consumed counters behind; distinctAttribute compares against every device
 * of a request, not only the last one; share IDs are derived from claim, request and device instead
 * of drawn at random, so equal inputs give equal outputs; after 2,000 search steps the same search
 * continues with a bipartite-matching bound that cuts hopeless branches, which finds the same first
 * solution (or proves there is none) without upstream's exponential blow-up.
 */
package io.jdra.allocator;
