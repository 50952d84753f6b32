package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.allocator.internal.CelSelectors;
import io.jdra.allocator.internal.Slices;
import java.util.List;

/**
 * ResourceSlices (DeviceTaintRules already applied) prepared for many allocators: indexed by node,
 * with each node's pools, candidate devices and selector results remembered as allocations need
 * them. Keep one while the slices do not change and pass it to {@link Allocator#create(
 * AllocatedState, DeviceClassLister, SliceIndex)}, so that what all scheduling cycles share is
 * worked out once (upstream computes it per cycle). Immutable as far as callers can tell, and
 * thread-safe.
 */
public final class SliceIndex {
  final AllocatorFeatures features;
  final Slices slices;

  private SliceIndex(AllocatorFeatures features, Slices slices) {
    this.features = features;
    this.slices = slices;
  }

  /** An index of these slices, for allocators with these features. */
  public static SliceIndex of(AllocatorFeatures features, List<ResourceSlice> slices) {
    return new SliceIndex(
        features, new Slices(features, slices, CelSelectors.forFeatures(features)));
  }

  public AllocatorFeatures features() {
    return features;
  }
}
