package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirements;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import java.util.List;

/**
 * One request or subrequest of a claim being allocated: its class, how many devices, and a cache of
 * which devices its selectors accept (upstream {@code requestData} + {@code requestAccessor}).
 */
final class RequestData {
  static final String MODE_EXACT_COUNT = "ExactCount";
  static final String MODE_ALL = "All";

  final int claimIndex;
  final int requestIndex;
  final int subRequestIndex;

  /** The request's name, or the subrequest's. */
  final String name;

  /** The parent request's name for a subrequest, else null. */
  final String parentName;

  final String deviceClassName;
  final String allocationMode;
  final long count;
  final Boolean adminAccessField;
  final List<DeviceSelector> selectors;
  final List<DeviceToleration> tolerations;
  final CapacityRequirements capacity;

  DeviceClass deviceClass;

  /**
   * The expressions that decide which devices are selectable (see {@link PreparedClaims}); set with
   * {@link #deviceClass}.
   */
  Slices.SelectorKey selectorKey;

  int numDevices;
  List<Dev> allDevices;

  /** Per device index: 0 unknown, 1 selectable, 2 not. */
  byte[] selectable;

  private RequestData(
      int claimIndex,
      int requestIndex,
      int subRequestIndex,
      String name,
      String parentName,
      String deviceClassName,
      String allocationMode,
      Long count,
      Boolean adminAccess,
      List<DeviceSelector> selectors,
      List<DeviceToleration> tolerations,
      CapacityRequirements capacity) {
    this.claimIndex = claimIndex;
    this.requestIndex = requestIndex;
    this.subRequestIndex = subRequestIndex;
    this.name = name;
    this.parentName = parentName;
    this.deviceClassName = deviceClassName == null ? "" : deviceClassName;
    // Defaulting fills these in the API server; objects given as-is may lack them.
    this.allocationMode =
        allocationMode == null || allocationMode.isEmpty() ? MODE_EXACT_COUNT : allocationMode;
    // In Go an explicit 0 is the same as unset, and the API server defaults ExactCount to 1.
    boolean unset = count == null || count == 0;
    this.count = unset ? (MODE_EXACT_COUNT.equals(this.allocationMode) ? 1 : 0) : count;
    this.adminAccessField = adminAccess;
    this.selectors = selectors == null ? List.of() : selectors;
    this.tolerations = tolerations == null ? List.of() : tolerations;
    this.capacity = capacity;
  }

  static RequestData exact(int claim, int request, DeviceRequest r) {
    ExactDeviceRequest e = r.getExactly() == null ? new ExactDeviceRequest() : r.getExactly();
    return new RequestData(
        claim,
        request,
        0,
        r.getName(),
        null,
        e.getDeviceClassName(),
        e.getAllocationMode(),
        e.getCount(),
        e.getAdminAccess(),
        e.getSelectors(),
        e.getTolerations(),
        e.getCapacity());
  }

  static RequestData sub(
      int claim, int request, int sub, DeviceRequest parent, DeviceSubRequest s) {
    return new RequestData(
        claim,
        request,
        sub,
        s.getName(),
        parent.getName(),
        s.getDeviceClassName(),
        s.getAllocationMode(),
        s.getCount(),
        null,
        s.getSelectors(),
        s.getTolerations(),
        s.getCapacity());
  }

  /** Whether the request names no capacity (so every device's default consumption applies). */
  boolean noCapacityRequests() {
    return capacity == null || capacity.getRequests() == null || capacity.getRequests().isEmpty();
  }

  boolean adminAccess() {
    return Boolean.TRUE.equals(adminAccessField);
  }

  boolean allMode() {
    return MODE_ALL.equals(allocationMode);
  }

  boolean isSubRequest() {
    return parentName != null;
  }

  /** The name in results and config: {@code request} or {@code request/subrequest}. */
  String resultName() {
    return parentName == null ? name : parentName + "/" + name;
  }

  /** The request the constraints know: the parent for a subrequest. */
  String baseName() {
    return parentName == null ? name : parentName;
  }

  @Override
  public String toString() {
    return resultName();
  }

  /**
   * A copy for one node's search: what {@link PreparedClaims} worked out once (class, selector key,
   * exact count), without the node's selectable devices and "All" devices.
   */
  RequestData forNode() {
    RequestData copy = withSelectors(selectors);
    copy.selectorKey = selectorKey;
    copy.numDevices = numDevices;
    return copy;
  }

  /** The same request without its own selectors: for checking the class selectors alone. */
  RequestData classOnly() {
    return withSelectors(List.of());
  }

  /** A copy with {@code newSelectors} and the resolved class, and nothing a search computes. */
  private RequestData withSelectors(List<DeviceSelector> newSelectors) {
    RequestData copy =
        new RequestData(
            claimIndex,
            requestIndex,
            subRequestIndex,
            name,
            parentName,
            deviceClassName,
            allocationMode,
            count,
            adminAccessField,
            newSelectors,
            tolerations,
            capacity);
    copy.deviceClass = deviceClass;
    return copy;
  }
}
