package io.jdra.cli.bench;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.allocator.AllocatedState;
import io.jdra.allocator.AllocationException;
import io.jdra.allocator.AllocationOutcome;
import io.jdra.allocator.Allocator;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.allocator.Deadline;
import io.jdra.allocator.DeviceClassLister;
import io.jdra.allocator.SliceIndex;
import java.util.ArrayList;
import java.util.List;

/**
 * scheduler_perf's {@code allocResourceClaims}: allocates every unallocated claim of a namespace
 * directly, with the allocator the scheduler uses, node by node, and writes {@code
 * status.allocation} (no pod, so no reservedFor), so a workload starts with part of the cluster in
 * use without scheduling pods for it.
 */
final class ClaimAllocation {
  private ClaimAllocation() {}

  /** Returns how many claims were allocated; throws if one fits on no node. */
  static int allocate(KubernetesClient c, String namespace, AllocatorFeatures features)
      throws Exception {
    List<ResourceClaim> all = c.resources(ResourceClaim.class).inAnyNamespace().list().getItems();
    List<ResourceSlice> slices = c.resources(ResourceSlice.class).list().getItems();
    List<DeviceClass> classes = c.resources(DeviceClass.class).list().getItems();
    List<Node> nodes = c.nodes().list().getItems();
    AllocatedState.Builder state = AllocatedState.builder();
    for (ResourceClaim rc : all) {
      results(rc).forEach(r -> state.add(r, features.consumableCapacity()));
    }
    // One index for all claims: the slices do not change, so each node's pools are gathered once.
    SliceIndex index = SliceIndex.of(features, slices);
    List<ResourceClaim> allocated = new ArrayList<>();
    int next = 0; // nodes only fill up: start where the last claim fitted, wrap around once
    for (ResourceClaim rc : all) {
      if (!namespace.equals(rc.getMetadata().getNamespace()) || !results(rc).isEmpty()) {
        continue;
      }
      Allocator allocator = Allocator.create(state.build(), DeviceClassLister.of(classes), index);
      AllocationResult result = null;
      for (int k = 0; k < nodes.size() && result == null; k++) {
        int i = (next + k) % nodes.size();
        result = allocateOn(allocator, nodes.get(i), rc);
        if (result != null) {
          next = i;
        }
      }
      if (result == null) {
        throw new IllegalStateException(
            "allocResourceClaims: claim "
                + namespace
                + "/"
                + rc.getMetadata().getName()
                + " fits on no node");
      }
      result.getDevices().getResults().forEach(r -> state.add(r, features.consumableCapacity()));
      allocated.add(
          new ResourceClaimBuilder(rc)
              .editOrNewStatus()
              .withAllocation(result)
              .endStatus()
              .build());
    }
    Parallel.forEach(
        allocated.size(),
        i ->
            c.resources(ResourceClaim.class)
                .inNamespace(namespace)
                .resource(allocated.get(i))
                .updateStatus());
    return allocated.size();
  }

  private static AllocationResult allocateOn(Allocator a, Node node, ResourceClaim rc) {
    try {
      AllocationOutcome o = a.allocate(node, List.of(rc), Deadline.none());
      return o instanceof AllocationOutcome.Allocated ok ? ok.results().get(0) : null;
    } catch (AllocationException e) {
      if (e.isNodeLocal()) {
        return null;
      }
      throw new IllegalStateException(
          "allocResourceClaims: claim " + rc.getMetadata().getName() + ": " + e.getMessage(), e);
    }
  }

  private static List<DeviceRequestAllocationResult> results(ResourceClaim rc) {
    if (rc.getStatus() == null
        || rc.getStatus().getAllocation() == null
        || rc.getStatus().getAllocation().getDevices() == null
        || rc.getStatus().getAllocation().getDevices().getResults() == null) {
      return List.of();
    }
    return rc.getStatus().getAllocation().getDevices().getResults();
  }
}
