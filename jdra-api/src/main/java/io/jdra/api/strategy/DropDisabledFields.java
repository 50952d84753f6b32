package io.jdra.api.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpecBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import java.util.Objects;

/**
 * The API server's rule for fields of feature gates that are off: such a field is cleared on
 * create, and on update unless the old object already used that feature (so that unrelated updates
 * of existing objects keep working after a gate was switched off). Mirrors upstream's {@code
 * dropDisabled*Fields} functions per kind:
 *
 * <table>
 *   <caption>Fields per gate</caption>
 *   <tr><th>gate</th><th>fields</th></tr>
 *   <tr><td>DRAPrioritizedList</td><td>claim/template {@code spec.devices.requests[*].firstAvailable}</td></tr>
 *   <tr><td>DRADeviceTaints</td><td>request and subrequest {@code tolerations}; slice device {@code taints}</td></tr>
 *   <tr><td>DRAAdminAccess</td><td>{@code requests[*].exactly.adminAccess}; claim {@code
 *       status.allocation.devices.results[*].adminAccess}</td></tr>
 *   <tr><td>DRAConsumableCapacity</td><td>constraint {@code distinctAttribute}, request and
 *       subrequest {@code capacity}; result {@code shareID}, {@code consumedCapacity}; status
 *       device {@code shareID}; slice device {@code allowMultipleAllocations} and capacity {@code
 *       requestPolicy}</td></tr>
 *   <tr><td>DRAResourceClaimDeviceStatus</td><td>claim {@code status.devices}</td></tr>
 *   <tr><td>DRADeviceBindingConditions</td><td>result {@code bindingConditions}, {@code
 *       bindingFailureConditions}; slice device {@code bindingConditions}, {@code
 *       bindingFailureConditions}, {@code bindsToNode} (on slices the gate only counts as on
 *       together with DRAResourceClaimDeviceStatus)</td></tr>
 *   <tr><td>DRAPartitionableDevices</td><td>slice {@code sharedCounters}, {@code
 *       perDeviceNodeSelection}; device {@code consumesCounters}, {@code nodeName}, {@code
 *       nodeSelector}, {@code allNodes}</td></tr>
 *   <tr><td>DRANodeAllocatableResources</td><td>slice device {@code nodeAllocatableResourceMappings}</td></tr>
 *   <tr><td>DRAListTypeAttributes</td><td>slice device attribute {@code bools}, {@code ints},
 *       {@code strings}, {@code versions}</td></tr>
 *   <tr><td>DRAExtendedResource</td><td>DeviceClass {@code spec.extendedResourceName}</td></tr>
 * </table>
 *
 * <p>"Already used" is decided per feature over the whole old object (as upstream), e.g. one
 * request with {@code adminAccess} in the old claim keeps {@code adminAccess} everywhere in the new
 * one. Claim status fields count as used when the old claim's spec or status used the feature.
 *
 * <p>Each method is a pure function returning a new object (fabric8 builder copy); its arguments
 * are never modified. Dropped collections become empty, dropped scalars and objects null (both
 * serialise as absent). {@code forCreate} and {@code forUpdate} handle spec and status; the
 * strategies ({@link ResourceClaimStrategy} etc.) decide which part of a write is kept. Stateless
 * and thread-safe. DeviceTaintRule has no gated fields: the whole kind is behind
 * DRADeviceTaintRules, which the API server applies by not serving the kind.
 */
public final class DropDisabledFields {
  private DropDisabledFields() {}

  /** A copy of a new claim with every field of a disabled gate cleared (spec and status). */
  public static ResourceClaim forCreate(ResourceClaim claim, FeatureGates gates) {
    return forUpdate(claim, null, gates);
  }

  /**
   * A copy of an updated claim with the fields of disabled gates cleared unless {@code old} (null:
   * a create) already used them.
   */
  public static ResourceClaim forUpdate(
      ResourceClaim claim, ResourceClaim old, FeatureGates gates) {
    Objects.requireNonNull(gates, "gates");
    if (claim == null) {
      return null;
    }
    ResourceClaim copy = new ResourceClaimBuilder(claim).build();
    ClaimSpecFields.dropInPlace(copy.getSpec(), old == null ? null : old.getSpec(), gates);
    ClaimStatusFields.dropInPlace(copy, old, gates);
    return copy;
  }

  /**
   * A copy of a claim spec with the fields of disabled gates cleared unless {@code old} used them.
   */
  public static ResourceClaimSpec claimSpec(
      ResourceClaimSpec spec, ResourceClaimSpec old, FeatureGates gates) {
    Objects.requireNonNull(gates, "gates");
    if (spec == null) {
      return null;
    }
    ResourceClaimSpec copy = new ResourceClaimSpecBuilder(spec).build();
    ClaimSpecFields.dropInPlace(copy, old, gates);
    return copy;
  }

  /** A copy of a new template with the fields of disabled gates cleared in its claim spec. */
  public static ResourceClaimTemplate forCreate(
      ResourceClaimTemplate template, FeatureGates gates) {
    return forUpdate(template, null, gates);
  }

  /** As {@link #forCreate(ResourceClaimTemplate, FeatureGates)}, keeping what {@code old} used. */
  public static ResourceClaimTemplate forUpdate(
      ResourceClaimTemplate template, ResourceClaimTemplate old, FeatureGates gates) {
    Objects.requireNonNull(gates, "gates");
    if (template == null) {
      return null;
    }
    ResourceClaimTemplate copy = new ResourceClaimTemplateBuilder(template).build();
    if (copy.getSpec() != null) {
      ResourceClaimSpec oldSpec =
          old == null || old.getSpec() == null ? null : old.getSpec().getSpec();
      ClaimSpecFields.dropInPlace(copy.getSpec().getSpec(), oldSpec, gates);
    }
    return copy;
  }

  /** A copy of a new slice with every field of a disabled gate cleared. */
  public static ResourceSlice forCreate(ResourceSlice slice, FeatureGates gates) {
    return forUpdate(slice, null, gates);
  }

  /** As {@link #forCreate(ResourceSlice, FeatureGates)}, keeping what {@code old} used. */
  public static ResourceSlice forUpdate(
      ResourceSlice slice, ResourceSlice old, FeatureGates gates) {
    Objects.requireNonNull(gates, "gates");
    if (slice == null) {
      return null;
    }
    ResourceSlice copy = new ResourceSliceBuilder(slice).build();
    SliceFields.dropInPlace(copy, old, gates);
    return copy;
  }

  /** A copy of a new class with {@code spec.extendedResourceName} cleared when its gate is off. */
  public static DeviceClass forCreate(DeviceClass deviceClass, FeatureGates gates) {
    return forUpdate(deviceClass, null, gates);
  }

  /** As {@link #forCreate(DeviceClass, FeatureGates)}, keeping what {@code old} used. */
  public static DeviceClass forUpdate(
      DeviceClass deviceClass, DeviceClass old, FeatureGates gates) {
    Objects.requireNonNull(gates, "gates");
    if (deviceClass == null) {
      return null;
    }
    DeviceClass copy = new DeviceClassBuilder(deviceClass).build();
    boolean inUse =
        old != null && old.getSpec() != null && old.getSpec().getExtendedResourceName() != null;
    if (!gates.enabled(Feature.DRA_EXTENDED_RESOURCE) && !inUse && copy.getSpec() != null) {
      copy.getSpec().setExtendedResourceName(null);
    }
    return copy;
  }
}
