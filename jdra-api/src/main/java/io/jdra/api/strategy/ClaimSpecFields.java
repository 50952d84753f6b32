package io.jdra.api.strategy;

import static io.jdra.api.strategy.Util.list;
import static io.jdra.api.strategy.Util.present;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import java.util.ArrayList;
import java.util.List;

/**
 * Drops gated fields of a claim spec (shared by ResourceClaim and ResourceClaimTemplate), as
 * upstream's {@code resourceclaimspec.DropDisabledFields}. Mutates only the spec it is given, which
 * callers guarantee is their own copy.
 */
final class ClaimSpecFields {
  private ClaimSpecFields() {}

  /**
   * Whether {@link #dropInPlace} leaves every spec as it is under these gates: the gates of all the
   * fields it may drop are on.
   */
  static boolean dropsNothing(FeatureGates gates) {
    return gates.enabled(Feature.DRA_PRIORITIZED_LIST)
        && gates.enabled(Feature.DRA_DEVICE_TAINTS)
        && gates.enabled(Feature.DRA_ADMIN_ACCESS)
        && gates.enabled(Feature.DRA_CONSUMABLE_CAPACITY);
  }

  static void dropInPlace(ResourceClaimSpec spec, ResourceClaimSpec old, FeatureGates gates) {
    if (spec == null || spec.getDevices() == null) {
      return;
    }
    // Prioritized list first, so that dropped subrequests are not visited below.
    if (!gates.enabled(Feature.DRA_PRIORITIZED_LIST) && !prioritizedListInUse(old)) {
      requests(spec).forEach(r -> r.setFirstAvailable(new ArrayList<>()));
    }
    if (!gates.enabled(Feature.DRA_DEVICE_TAINTS) && !deviceTaintsInUse(old)) {
      dropTolerations(spec);
    }
    if (!gates.enabled(Feature.DRA_ADMIN_ACCESS) && !adminAccessInUse(old)) {
      exactRequests(spec).forEach(e -> e.setAdminAccess(null));
    }
    if (!gates.enabled(Feature.DRA_CONSUMABLE_CAPACITY) && !consumableCapacityInUse(old)) {
      dropConsumableCapacity(spec);
    }
  }

  static boolean prioritizedListInUse(ResourceClaimSpec spec) {
    return requests(spec).stream().anyMatch(r -> present(r.getFirstAvailable()));
  }

  static boolean deviceTaintsInUse(ResourceClaimSpec spec) {
    return exactRequests(spec).stream().anyMatch(e -> present(e.getTolerations()))
        || subRequests(spec).stream().anyMatch(s -> present(s.getTolerations()));
  }

  static boolean adminAccessInUse(ResourceClaimSpec spec) {
    return exactRequests(spec).stream().anyMatch(e -> e.getAdminAccess() != null);
  }

  static boolean consumableCapacityInUse(ResourceClaimSpec spec) {
    return constraints(spec).stream().anyMatch(c -> c.getDistinctAttribute() != null)
        || exactRequests(spec).stream().anyMatch(e -> e.getCapacity() != null)
        || subRequests(spec).stream().anyMatch(s -> s.getCapacity() != null);
  }

  private static void dropTolerations(ResourceClaimSpec spec) {
    exactRequests(spec).forEach(e -> e.setTolerations(new ArrayList<>()));
    subRequests(spec).forEach(s -> s.setTolerations(new ArrayList<>()));
  }

  private static void dropConsumableCapacity(ResourceClaimSpec spec) {
    constraints(spec).forEach(c -> c.setDistinctAttribute(null));
    exactRequests(spec).forEach(e -> e.setCapacity(null));
    subRequests(spec).forEach(s -> s.setCapacity(null));
  }

  static List<DeviceRequest> requests(ResourceClaimSpec spec) {
    DeviceClaim devices = spec == null ? null : spec.getDevices();
    return devices == null ? List.of() : list(devices.getRequests());
  }

  private static List<DeviceConstraint> constraints(ResourceClaimSpec spec) {
    DeviceClaim devices = spec == null ? null : spec.getDevices();
    return devices == null ? List.of() : list(devices.getConstraints());
  }

  private static List<ExactDeviceRequest> exactRequests(ResourceClaimSpec spec) {
    List<ExactDeviceRequest> out = new ArrayList<>();
    for (DeviceRequest r : requests(spec)) {
      if (r.getExactly() != null) {
        out.add(r.getExactly());
      }
    }
    return out;
  }

  private static List<DeviceSubRequest> subRequests(ResourceClaimSpec spec) {
    List<DeviceSubRequest> out = new ArrayList<>();
    requests(spec).forEach(r -> out.addAll(list(r.getFirstAvailable())));
    return out;
  }
}
