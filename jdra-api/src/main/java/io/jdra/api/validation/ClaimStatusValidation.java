package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.NetworkDeviceData;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** Checks of a ResourceClaim status update: reservedFor, device statuses, allocation. */
final class ClaimStatusValidation {
  static final int RESERVED_FOR_MAX = 256;
  static final int ALLOCATION_CONFIG_MAX = 2 * ClaimValidation.CONFIG_MAX;
  static final int DEVICE_STATUS_MAX_CONDITIONS = 8;
  static final int DEVICE_STATUS_DATA_MAX_LENGTH = 10 * 1024;
  static final int INTERFACE_NAME_MAX_LENGTH = 256;
  static final int HARDWARE_ADDRESS_MAX_LENGTH = 128;
  static final int MAX_IPS = 16;

  private ClaimStatusValidation() {}

  static List<FieldError> statusUpdate(
      ResourceClaimStatus status,
      ResourceClaimStatus old,
      boolean claimDeleted,
      RequestNames names,
      FieldPath path) {
    ResourceClaimStatus s = status == null ? new ResourceClaimStatus() : status;
    ResourceClaimStatus o = old == null ? new ResourceClaimStatus() : old;
    List<FieldError> errs = new ArrayList<>();
    errs.addAll(
        Lists.set(
            s.getReservedFor(),
            RESERVED_FOR_MAX,
            ClaimStatusValidation::consumerReference,
            r -> MetaValidation.nz(r.getUid()),
            path.child("reservedFor")));
    Set<String> allocated = allocatedDevices(s.getAllocation());
    errs.addAll(
        Lists.set(
            s.getDevices(),
            -1,
            (d, p) -> deviceStatus(d, p, allocated),
            d -> sharedDeviceId(d.getDriver(), d.getPool(), d.getDevice(), d.getShareID()),
            k -> new FieldError.RawJson(k),
            path.child("devices")));
    List<ResourceClaimConsumerReference> reservedFor = Lists.nn(s.getReservedFor());
    if (!reservedFor.isEmpty()) {
      if (s.getAllocation() == null) {
        errs.add(
            FieldError.forbidden(
                path.child("reservedFor"), "may not be specified when `allocated` is not set"));
      } else if (claimDeleted
          && !new HashSet<>(Lists.nn(o.getReservedFor())).containsAll(reservedFor)) {
        errs.add(
            FieldError.forbidden(
                path.child("reservedFor"),
                "new entries may not be added while `deallocationRequested` or `deletionTimestamp`"
                    + " are set"));
      }
    }
    if (o.getAllocation() != null && s.getAllocation() != null) {
      if (!Objects.equals(s.getAllocation(), o.getAllocation())) {
        errs.add(
            FieldError.invalid(
                path.child("allocation"), s.getAllocation(), MetaValidation.FIELD_IMMUTABLE));
      }
    } else if (s.getAllocation() != null) {
      errs.addAll(allocation(s.getAllocation(), path.child("allocation"), names));
    }
    return errs;
  }

  private static List<FieldError> consumerReference(
      ResourceClaimConsumerReference ref, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    if (MetaValidation.nz(ref.getResource()).isEmpty()) {
      errs.add(FieldError.required(path.child("resource"), ""));
    }
    if (MetaValidation.nz(ref.getName()).isEmpty()) {
      errs.add(FieldError.required(path.child("name"), ""));
    }
    if (MetaValidation.nz(ref.getUid()).isEmpty()) {
      errs.add(FieldError.required(path.child("uid"), ""));
    }
    return errs;
  }

  private static List<FieldError> allocation(
      AllocationResult allocation, FieldPath path, RequestNames names) {
    DeviceAllocationResult devices =
        allocation.getDevices() == null ? new DeviceAllocationResult() : allocation.getDevices();
    FieldPath devicesPath = path.child("devices");
    List<FieldError> errs = new ArrayList<>();
    errs.addAll(
        Lists.slice(
            devices.getResults(),
            DeviceRequestValidation.REQUESTS_MAX,
            (r, p) -> result(r, p, names),
            devicesPath.child("results")));
    errs.addAll(
        Lists.slice(
            devices.getConfig(),
            ALLOCATION_CONFIG_MAX,
            (c, p) -> allocationConfig(c, p, names),
            devicesPath.child("config")));
    if (allocation.getNodeSelector() != null) {
      errs.addAll(
          NodeSelectorValidation.nodeSelector(
              allocation.getNodeSelector(), path.child("nodeSelector")));
    }
    return errs;
  }

  private static List<FieldError> result(
      DeviceRequestAllocationResult r, FieldPath path, RequestNames names) {
    List<FieldError> errs =
        new ArrayList<>(ClaimValidation.requestRef(r.getRequest(), path.child("request"), names));
    errs.addAll(NameValidation.validateDriverName(r.getDriver(), path.child("driver")));
    errs.addAll(NameValidation.validatePoolName(r.getPool(), path.child("pool")));
    errs.addAll(
        NameValidation.validateDns1123Label(
            MetaValidation.nz(r.getDevice()), path.child("device")));
    errs.addAll(
        DeviceValidation.bindingConditions(
            r.getBindingConditions(), r.getBindingFailureConditions(), path));
    errs.addAll(
        Lists.slice(
            r.getTolerations(), -1, TaintValidation::toleration, path.child("tolerations")));
    if (r.getShareID() != null) {
      errs.addAll(Uids.validate(r.getShareID(), path.child("shareID")));
    }
    return errs;
  }

  private static List<FieldError> allocationConfig(
      DeviceAllocationConfiguration c, FieldPath path, RequestNames names) {
    List<FieldError> errs = new ArrayList<>();
    String source = MetaValidation.nz(c.getSource());
    switch (source) {
      case "" -> errs.add(FieldError.required(path.child("source"), ""));
      case "FromClaim", "FromClass" -> {}
      default ->
          errs.add(
              FieldError.notSupported(
                  path.child("source"), source, List.of("FromClaim", "FromClass")));
    }
    errs.addAll(ClaimValidation.requestRefs(c.getRequests(), path, names));
    errs.addAll(ConfigValidation.opaqueConfig(c.getOpaque(), path, false));
    return errs;
  }

  private static List<FieldError> deviceStatus(
      AllocatedDeviceStatus d, FieldPath path, Set<String> allocated) {
    List<FieldError> errs =
        new ArrayList<>(NameValidation.validateDriverName(d.getDriver(), path.child("driver")));
    errs.addAll(NameValidation.validatePoolName(d.getPool(), path.child("pool")));
    errs.addAll(
        NameValidation.validateDns1123Label(
            MetaValidation.nz(d.getDevice()), path.child("device")));
    if (d.getShareID() != null) {
      errs.addAll(Uids.validate(d.getShareID(), path.child("shareID")));
    }
    String id = sharedDeviceId(d.getDriver(), d.getPool(), d.getDevice(), d.getShareID());
    if (!allocated.contains(id)) {
      errs.add(
          FieldError.invalid(
              path, new FieldError.RawJson(id), "must be an allocated device in the claim"));
    }
    int conditions = Lists.nn(d.getConditions()).size();
    if (conditions > DEVICE_STATUS_MAX_CONDITIONS) {
      errs.add(
          FieldError.tooMany(path.child("conditions"), conditions, DEVICE_STATUS_MAX_CONDITIONS));
    }
    errs.addAll(MetaValidation.validateConditions(d.getConditions(), path.child("conditions")));
    if (d.getData() != null) {
      errs.addAll(
          ConfigValidation.rawExtension(
              d.getData(), path.child("data"), false, DEVICE_STATUS_DATA_MAX_LENGTH));
    }
    errs.addAll(networkData(d.getNetworkData(), path.child("networkData")));
    return errs;
  }

  private static List<FieldError> networkData(NetworkDeviceData data, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    if (data == null) {
      return errs;
    }
    if (NameValidation.len(MetaValidation.nz(data.getInterfaceName()))
        > INTERFACE_NAME_MAX_LENGTH) {
      errs.add(FieldError.tooLong(path.child("interfaceName"), INTERFACE_NAME_MAX_LENGTH));
    }
    if (NameValidation.len(MetaValidation.nz(data.getHardwareAddress()))
        > HARDWARE_ADDRESS_MAX_LENGTH) {
      errs.add(FieldError.tooLong(path.child("hardwareAddress"), HARDWARE_ADDRESS_MAX_LENGTH));
    }
    errs.addAll(
        Lists.set(
            data.getIps(),
            MAX_IPS,
            (ip, p) -> InterfaceAddresses.validate(ip, p),
            ip -> ip,
            path.child("ips")));
    return errs;
  }

  private static Set<String> allocatedDevices(AllocationResult allocation) {
    Set<String> ids = new HashSet<>();
    if (allocation == null || allocation.getDevices() == null) {
      return ids;
    }
    for (DeviceRequestAllocationResult r : Lists.nn(allocation.getDevices().getResults())) {
      ids.add(sharedDeviceId(r.getDriver(), r.getPool(), r.getDevice(), r.getShareID()));
    }
    return ids;
  }

  /** Upstream's {@code SharedDeviceID} as Go's {@code json.Marshal} prints it. */
  private static String sharedDeviceId(String driver, String pool, String device, String shareId) {
    return "{\"Driver\":"
        + GoFormat.json(MetaValidation.nz(driver))
        + ",\"Pool\":"
        + GoFormat.json(MetaValidation.nz(pool))
        + ",\"Device\":"
        + GoFormat.json(MetaValidation.nz(device))
        + ",\"ShareID\":"
        + GoFormat.json(MetaValidation.nz(shareId))
        + "}";
  }
}
