package io.jdra.kubeletplugin.resourceslice;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reported through the controller's error handler when the API server stored a slice with fewer
 * fields than the driver asked for, usually because a feature gate is off there (upstream
 * DroppedFieldsError). The controller then takes what was stored as the desired state, so it does
 * not update the slice forever.
 */
public final class DroppedFieldsException extends RuntimeException {
  private static final String NODE_ALLOCATABLE_MAPPINGS = "nodeAllocatableResourceMappings";

  private final String poolName;
  private final int sliceIndex;
  private final ResourceSlice desired;
  private final ResourceSlice actual;

  public DroppedFieldsException(
      String poolName, int sliceIndex, ResourceSlice desired, ResourceSlice actual) {
    super(message(poolName, sliceIndex, disabledFeatures(desired, actual)), null, false, false);
    this.poolName = poolName;
    this.sliceIndex = sliceIndex;
    this.desired = desired;
    this.actual = actual;
  }

  public String poolName() {
    return poolName;
  }

  public int sliceIndex() {
    return sliceIndex;
  }

  public ResourceSlice desiredSlice() {
    return desired;
  }

  public ResourceSlice actualSlice() {
    return actual;
  }

  /** The feature gates that probably are off, guessed from which fields are missing. */
  public List<String> disabledFeatures() {
    return disabledFeatures(desired, actual);
  }

  private static String message(String pool, int index, List<String> disabled) {
    List<String> d = disabled.isEmpty() ? List.of("unknown") : disabled;
    return String.format(
        "pool \"%s\", slice #%d: some fields were dropped by the apiserver, probably because these features are disabled: %s",
        pool, index, String.join(" ", d));
  }

  static List<String> disabledFeatures(ResourceSlice desiredSlice, ResourceSlice actualSlice) {
    ResourceSliceSpec want = desiredSlice.getSpec();
    ResourceSliceSpec got = actualSlice.getSpec();
    List<Device> wd = nz(want.getDevices());
    List<Device> gd = nz(got.getDevices());
    int n = Math.min(wd.size(), gd.size());
    List<String> disabled = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (nz(wd.get(i).getTaints()).size() > nz(gd.get(i).getTaints()).size()) {
        disabled.add("DRADeviceTaints");
        break;
      }
    }
    boolean partitionable =
        (Boolean.TRUE.equals(want.getPerDeviceNodeSelection())
                && !Boolean.TRUE.equals(got.getPerDeviceNodeSelection()))
            || nz(want.getSharedCounters()).size() > nz(got.getSharedCounters()).size();
    for (int i = 0; i < n && !partitionable; i++) {
      partitionable =
          nz(wd.get(i).getConsumesCounters()).size() != nz(gd.get(i).getConsumesCounters()).size();
    }
    if (partitionable) {
      disabled.add("DRAPartitionableDevices");
    }
    for (int i = 0; i < n; i++) {
      if (nz(wd.get(i).getBindingConditions()).size() != nz(gd.get(i).getBindingConditions()).size()
          || nz(wd.get(i).getBindingFailureConditions()).size()
              != nz(gd.get(i).getBindingFailureConditions()).size()) {
        disabled.add("DRADeviceBindingConditions");
        break;
      }
    }
    for (int i = 0; i < n; i++) {
      if (wd.get(i).getAllowMultipleAllocations() != null
          && gd.get(i).getAllowMultipleAllocations() == null) {
        disabled.add("DRAConsumableCapacity");
        break;
      }
    }
    for (int i = 0; i < n; i++) {
      // The 1.36 field travels in fabric8's additional properties (its model has a later draft).
      if (wd.get(i).getAdditionalProperties().containsKey(NODE_ALLOCATABLE_MAPPINGS)
          && !gd.get(i).getAdditionalProperties().containsKey(NODE_ALLOCATABLE_MAPPINGS)) {
        disabled.add("DRANodeAllocatableResources");
        break;
      }
    }
    return disabled;
  }

  private static <T> List<T> nz(List<T> l) {
    return Objects.requireNonNullElse(l, List.of());
  }
}
