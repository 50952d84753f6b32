package io.jdra.api.strategy;

import static io.jdra.api.strategy.Util.list;
import static io.jdra.api.strategy.Util.map;
import static io.jdra.api.strategy.Util.present;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacityBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Drops gated fields of a ResourceSlice, as upstream's resourceslice strategy. Mutates only the
 * slice it is given (the caller's own copy). Map values are replaced by new objects, never
 * modified, because fabric8's builder copies share them with the original.
 */
final class SliceFields {
  /**
   * The 1.36 device field {@code nodeAllocatableResourceMappings} (DRANodeAllocatableResources).
   * The fabric8 model follows a later draft ({@code nodeAllocatableResources}), so the 1.36 field
   * travels in the device's additional properties.
   */
  static final String NODE_ALLOCATABLE_MAPPINGS = "nodeAllocatableResourceMappings";

  private SliceFields() {}

  static void dropInPlace(ResourceSlice slice, ResourceSlice old, FeatureGates gates) {
    ResourceSliceSpec spec = slice.getSpec();
    if (spec == null) {
      return;
    }
    if (!gates.enabled(Feature.DRA_DEVICE_TAINTS) && !deviceTaintsInUse(old)) {
      devices(slice).forEach(d -> d.setTaints(new ArrayList<>()));
    }
    if (!gates.enabled(Feature.DRA_PARTITIONABLE_DEVICES) && !partitionableDevicesInUse(old)) {
      dropPartitionable(spec);
    }
    // Binding conditions need the device status feature too (drivers report through it).
    boolean bindingOn =
        gates.enabled(Feature.DRA_DEVICE_BINDING_CONDITIONS)
            && gates.enabled(Feature.DRA_RESOURCE_CLAIM_DEVICE_STATUS);
    if (!bindingOn && !bindingConditionsInUse(old)) {
      dropBindingConditions(slice);
    }
    if (!gates.enabled(Feature.DRA_CONSUMABLE_CAPACITY) && !consumableCapacityInUse(old)) {
      dropConsumableCapacity(slice);
    }
    if (!gates.enabled(Feature.DRA_NODE_ALLOCATABLE_RESOURCES)
        && !nodeAllocatableResourcesInUse(old)) {
      devices(slice).forEach(d -> d.getAdditionalProperties().remove(NODE_ALLOCATABLE_MAPPINGS));
    }
    if (!gates.enabled(Feature.DRA_LIST_TYPE_ATTRIBUTES) && !listTypeAttributesInUse(old)) {
      devices(slice).forEach(SliceFields::dropListAttributes);
    }
  }

  static boolean deviceTaintsInUse(ResourceSlice slice) {
    return devices(slice).stream().anyMatch(d -> present(d.getTaints()));
  }

  static boolean partitionableDevicesInUse(ResourceSlice slice) {
    if (slice == null || slice.getSpec() == null) {
      return false;
    }
    ResourceSliceSpec spec = slice.getSpec();
    if (present(spec.getSharedCounters()) || spec.getPerDeviceNodeSelection() != null) {
      return true;
    }
    return devices(slice).stream()
        .anyMatch(d ->
            present(d.getConsumesCounters())
                || d.getNodeName() != null
                || d.getNodeSelector() != null
                || d.getAllNodes() != null);
  }

  static boolean bindingConditionsInUse(ResourceSlice slice) {
    return devices(slice).stream()
        .anyMatch(d ->
            present(d.getBindingConditions())
                || present(d.getBindingFailureConditions())
                || d.getBindsToNode() != null);
  }

  static boolean consumableCapacityInUse(ResourceSlice slice) {
    return devices(slice).stream()
        .anyMatch(d ->
            d.getAllowMultipleAllocations() != null
                || map(d.getCapacity()).values().stream()
                    .anyMatch(c -> c != null && c.getRequestPolicy() != null));
  }

  static boolean nodeAllocatableResourcesInUse(ResourceSlice slice) {
    return devices(slice).stream()
        .anyMatch(d ->
            d.getAdditionalProperties().get(NODE_ALLOCATABLE_MAPPINGS) instanceof Map<?, ?> m
                && !m.isEmpty());
  }

  static boolean listTypeAttributesInUse(ResourceSlice slice) {
    return devices(slice).stream()
        .flatMap(d -> map(d.getAttributes()).values().stream())
        .anyMatch(SliceFields::isListAttribute);
  }

  private static boolean isListAttribute(DeviceAttribute a) {
    return a != null
        && (present(a.getBools())
            || present(a.getInts())
            || present(a.getStrings())
            || present(a.getVersions()));
  }

  private static void dropPartitionable(ResourceSliceSpec spec) {
    spec.setSharedCounters(new ArrayList<>());
    spec.setPerDeviceNodeSelection(null);
    for (Device d : list(spec.getDevices())) {
      d.setConsumesCounters(new ArrayList<>());
      d.setNodeName(null);
      d.setNodeSelector(null);
      d.setAllNodes(null);
    }
  }

  private static void dropBindingConditions(ResourceSlice slice) {
    for (Device d : devices(slice)) {
      d.setBindingConditions(new ArrayList<>());
      d.setBindingFailureConditions(new ArrayList<>());
      d.setBindsToNode(null);
    }
  }

  private static void dropConsumableCapacity(ResourceSlice slice) {
    for (Device d : devices(slice)) {
      d.setAllowMultipleAllocations(null);
      if (!present(d.getCapacity())) {
        continue;
      }
      Map<String, DeviceCapacity> capacity = new LinkedHashMap<>();
      d.getCapacity()
          .forEach((k, c) ->
              capacity.put(
                  k,
                  c == null ? null : new DeviceCapacityBuilder(c).withRequestPolicy(null).build()));
      d.setCapacity(capacity);
    }
  }

  private static void dropListAttributes(Device d) {
    if (!present(d.getAttributes())) {
      return;
    }
    Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
    d.getAttributes()
        .forEach((k, a) ->
            attributes.put(
                k,
                isListAttribute(a)
                    ? new DeviceAttributeBuilder(a)
                        .withBools(new ArrayList<>())
                        .withInts(new ArrayList<>())
                        .withStrings(new ArrayList<>())
                        .withVersions(new ArrayList<>())
                        .build()
                    : a));
    d.setAttributes(attributes);
  }

  static List<Device> devices(ResourceSlice slice) {
    if (slice == null || slice.getSpec() == null) {
      return List.of();
    }
    return list(slice.getSpec().getDevices());
  }
}
