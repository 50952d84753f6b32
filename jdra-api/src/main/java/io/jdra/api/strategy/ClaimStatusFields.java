package io.jdra.api.strategy;

import static io.jdra.api.strategy.Util.list;
import static io.jdra.api.strategy.Util.present;

import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;

/**
 * Drops gated fields of a claim status, as upstream's resourceclaim strategy does on status
 * updates. Mutates only the claim it is given, which callers guarantee is their own copy.
 */
final class ClaimStatusFields {
  private ClaimStatusFields() {}

  static void dropInPlace(ResourceClaim claim, ResourceClaim old, FeatureGates gates) {
    ResourceClaimStatus status = claim.getStatus();
    if (status == null) {
      return;
    }
    if (!gates.enabled(Feature.DRA_RESOURCE_CLAIM_DEVICE_STATUS) && !deviceStatusInUse(old)) {
      status.setDevices(new ArrayList<>());
    }
    if (!gates.enabled(Feature.DRA_ADMIN_ACCESS) && !adminAccessInUse(old)) {
      results(claim).forEach(r -> r.setAdminAccess(null));
    }
    if (!gates.enabled(Feature.DRA_CONSUMABLE_CAPACITY) && !consumableCapacityInUse(old)) {
      for (DeviceRequestAllocationResult r : results(claim)) {
        r.setShareID(null);
        r.setConsumedCapacity(new LinkedHashMap<>());
      }
      list(status.getDevices()).forEach(d -> d.setShareID(null));
    }
    if (!gates.enabled(Feature.DRA_DEVICE_BINDING_CONDITIONS) && !bindingConditionsInUse(old)) {
      for (DeviceRequestAllocationResult r : results(claim)) {
        r.setBindingConditions(new ArrayList<>());
        r.setBindingFailureConditions(new ArrayList<>());
      }
    }
  }

  static boolean deviceStatusInUse(ResourceClaim claim) {
    return claim != null && claim.getStatus() != null && present(claim.getStatus().getDevices());
  }

  /** In use in the spec (any {@code exactly.adminAccess}) or in any allocation result. */
  static boolean adminAccessInUse(ResourceClaim claim) {
    return claim != null
        && (ClaimSpecFields.adminAccessInUse(claim.getSpec())
            || results(claim).stream().anyMatch(r -> r.getAdminAccess() != null));
  }

  static boolean consumableCapacityInUse(ResourceClaim claim) {
    if (claim == null) {
      return false;
    }
    if (ClaimSpecFields.consumableCapacityInUse(claim.getSpec())) {
      return true;
    }
    boolean inResults =
        results(claim).stream()
            .anyMatch(r -> r.getShareID() != null || present(r.getConsumedCapacity()));
    boolean inDevices =
        claim.getStatus() != null
            && list(claim.getStatus().getDevices()).stream().anyMatch(d -> d.getShareID() != null);
    return inResults || inDevices;
  }

  static boolean bindingConditionsInUse(ResourceClaim claim) {
    return results(claim).stream()
        .anyMatch(
            r -> present(r.getBindingConditions()) || present(r.getBindingFailureConditions()));
  }

  /**
   * Removes {@code status.devices} entries for devices (with share ID) that were allocated in the
   * old claim and are no longer allocated in the new one, so stale driver status goes away with
   * deallocation. Does nothing when the device status feature is off and was not in use.
   */
  static void dropDeallocatedDevicesInPlace(
      ResourceClaim claim, ResourceClaim old, FeatureGates gates) {
    if (!gates.enabled(Feature.DRA_RESOURCE_CLAIM_DEVICE_STATUS) && !deviceStatusInUse(old)) {
      return;
    }
    if (claim.getStatus() == null) {
      return;
    }
    Set<List<String>> deallocated = new HashSet<>();
    results(old).forEach(r -> deallocated.add(id(r)));
    results(claim).forEach(r -> deallocated.remove(id(r)));
    List<AllocatedDeviceStatus> kept = new ArrayList<>();
    for (AllocatedDeviceStatus d : list(claim.getStatus().getDevices())) {
      if (!deallocated.contains(id(d))) {
        kept.add(d);
      }
    }
    claim.getStatus().setDevices(kept);
  }

  private static List<String> id(DeviceRequestAllocationResult r) {
    return java.util.Arrays.asList(r.getDriver(), r.getPool(), r.getDevice(), r.getShareID());
  }

  private static List<String> id(AllocatedDeviceStatus d) {
    return java.util.Arrays.asList(d.getDriver(), d.getPool(), d.getDevice(), d.getShareID());
  }

  static List<DeviceRequestAllocationResult> results(ResourceClaim claim) {
    if (claim == null || claim.getStatus() == null) {
      return List.of();
    }
    AllocationResult allocation = claim.getStatus().getAllocation();
    if (allocation == null || allocation.getDevices() == null) {
      return List.of();
    }
    return list(allocation.getDevices().getResults());
  }
}
