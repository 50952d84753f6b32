package io.jdra.allocator;

import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;

/**
 * The DRA features the allocator honours, as upstream's {@code structured.Features}. A request or
 * device that uses a disabled feature is rejected (an error) or ignored (a device), exactly as
 * upstream does.
 *
 * @param adminAccess DRAAdminAccess: {@code adminAccess} requests may use allocated devices
 * @param consumableCapacity DRAConsumableCapacity: shareable devices and capacity requests
 * @param deviceBindingAndStatus DRADeviceBindingConditions and DRAResourceClaimDeviceStatus
 * @param deviceTaints DRADeviceTaints: taints make devices unusable unless tolerated
 * @param listTypeAttributes DRAListTypeAttributes: constraints compare list attributes as sets
 * @param partitionableDevices DRAPartitionableDevices: shared counters, per-device node selection
 * @param prioritizedList DRAPrioritizedList: {@code firstAvailable} subrequests
 */
public record AllocatorFeatures(
    boolean adminAccess,
    boolean consumableCapacity,
    boolean deviceBindingAndStatus,
    boolean deviceTaints,
    boolean listTypeAttributes,
    boolean partitionableDevices,
    boolean prioritizedList) {

  /** The features as the scheduler derives them from its feature gates. */
  public static AllocatorFeatures from(FeatureGates gates) {
    return new AllocatorFeatures(
        gates.enabled(Feature.DRA_ADMIN_ACCESS),
        gates.enabled(Feature.DRA_CONSUMABLE_CAPACITY),
        gates.enabled(Feature.DRA_DEVICE_BINDING_CONDITIONS)
            && gates.enabled(Feature.DRA_RESOURCE_CLAIM_DEVICE_STATUS),
        gates.enabled(Feature.DRA_DEVICE_TAINTS),
        gates.enabled(Feature.DRA_LIST_TYPE_ATTRIBUTES),
        gates.enabled(Feature.DRA_PARTITIONABLE_DEVICES),
        gates.enabled(Feature.DRA_PRIORITIZED_LIST));
  }

  /** Kubernetes 1.36 defaults. */
  public static AllocatorFeatures defaults() {
    return from(FeatureGates.defaults());
  }

  /** Every feature on. */
  public static AllocatorFeatures all() {
    return new AllocatorFeatures(true, true, true, true, true, true, true);
  }

  /** Only GA behaviour (admin access and prioritized list are GA in 1.36). */
  public static AllocatorFeatures none() {
    return new AllocatorFeatures(false, false, false, false, false, false, false);
  }
}
