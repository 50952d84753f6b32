package io.jdra.kubeletplugin.resourceslice;

import io.fabric8.kubernetes.api.model.NodeSelector;
import java.util.List;

/**
 * One resource pool (upstream resourceslice.Pool). Immutable.
 *
 * <p>Each {@link Slice} becomes one ResourceSlice whose name starts with its index in {@code
 * slices} (hex, at least five digits): the allocator takes slices in name order, first fit, so the
 * order here is the allocation preference. The driver splits its devices so that each slice stays
 * within the API's limits (128 devices per slice, 64 with taints or counters, 8 counter sets).
 * Publish at least one slice per managed pool, even an empty one: an empty pool tells the scheduler
 * the driver is up and has no devices, which is different from no pool.
 *
 * @param nodeSelector for pools that are not node-local (null otherwise)
 * @param allNodes for pools available on every node
 * @param generation zero to let the controller manage it, or a higher value to force a bump
 * @param slices the slices, in preference order
 */
public record Pool(
    NodeSelector nodeSelector, boolean allNodes, long generation, List<Slice> slices) {
  public Pool {
    slices = List.copyOf(slices);
  }

  public static Pool of(List<Slice> slices) {
    return new Pool(null, false, 0, slices);
  }
}
