package io.jdra.api.defaulting;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpecBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * Defaulting of {@code resource.k8s.io/v1} objects as the Kubernetes API server applies it when it
 * decodes a request body (upstream {@code pkg/apis/resource/v1/defaults.go} plus the generated
 * {@code +default} markers):
 *
 * <ul>
 *   <li>{@code exactly.allocationMode} and {@code firstAvailable[*].allocationMode}: {@code
 *       ExactCount} when empty; then {@code count}: 1 when {@code ExactCount} and the count is
 *       unset or 0;
 *   <li>device tolerations (in requests, subrequests and allocation results): {@code operator}
 *       {@code Equal} when empty;
 *   <li>device taints (ResourceSlice devices and DeviceTaintRule): {@code timeAdded} = now,
 *       truncated to seconds, when unset.
 * </ul>
 *
 * <p>Every method is a pure function: it returns a defaulted deep copy (built with the fabric8
 * builders) and never modifies its argument. A null argument gives null. Stateless and thread-safe.
 * The API server applies these to every body it decodes (create, update, status update), before the
 * strategies in {@code io.jdra.api.strategy}.
 */
public final class Defaults {
  /** Upstream {@code DeviceAllocationModeExactCount}. */
  public static final String ALLOCATION_MODE_EXACT_COUNT = "ExactCount";

  /** Upstream {@code DeviceTolerationOpEqual}, the default toleration operator. */
  public static final String TOLERATION_OPERATOR_EQUAL = "Equal";

  private Defaults() {}

  /** A defaulted copy of the claim (spec requests and tolerations in allocation results). */
  public static ResourceClaim resourceClaim(ResourceClaim claim) {
    if (claim == null) {
      return null;
    }
    ResourceClaim copy = new ResourceClaimBuilder(claim).build();
    defaultSpecInPlace(copy.getSpec());
    if (copy.getStatus() != null) {
      defaultAllocationInPlace(copy.getStatus().getAllocation());
    }
    return copy;
  }

  /**
   * Defaults the claim in place and returns it: for callers that own a freshly decoded object (the
   * API server's admission), which saves the deep copy of {@link #resourceClaim}.
   */
  public static ResourceClaim resourceClaimInPlace(ResourceClaim claim) {
    if (claim == null) {
      return null;
    }
    defaultSpecInPlace(claim.getSpec());
    if (claim.getStatus() != null) {
      defaultAllocationInPlace(claim.getStatus().getAllocation());
    }
    return claim;
  }

  /** A defaulted copy of the template (its claim spec's requests). */
  public static ResourceClaimTemplate resourceClaimTemplate(ResourceClaimTemplate template) {
    if (template == null) {
      return null;
    }
    ResourceClaimTemplate copy = new ResourceClaimTemplateBuilder(template).build();
    if (copy.getSpec() != null) {
      defaultSpecInPlace(copy.getSpec().getSpec());
    }
    return copy;
  }

  /** A defaulted copy of a claim spec. */
  public static ResourceClaimSpec resourceClaimSpec(ResourceClaimSpec spec) {
    if (spec == null) {
      return null;
    }
    ResourceClaimSpec copy = new ResourceClaimSpecBuilder(spec).build();
    defaultSpecInPlace(copy);
    return copy;
  }

  /**
   * A defaulted copy of the slice: device taints without {@code timeAdded} get {@code now},
   * truncated to whole seconds (the wire format has no finer resolution).
   */
  public static ResourceSlice resourceSlice(ResourceSlice slice, Instant now) {
    Objects.requireNonNull(now, "now");
    if (slice == null) {
      return null;
    }
    ResourceSlice copy = new ResourceSliceBuilder(slice).build();
    if (copy.getSpec() != null) {
      for (Device device : nonNull(copy.getSpec().getDevices())) {
        nonNull(device.getTaints()).forEach(t -> defaultTaintInPlace(t, now));
      }
    }
    return copy;
  }

  /** A defaulted copy of the rule: its taint's {@code timeAdded} is {@code now} when unset. */
  public static DeviceTaintRule deviceTaintRule(DeviceTaintRule rule, Instant now) {
    Objects.requireNonNull(now, "now");
    if (rule == null) {
      return null;
    }
    DeviceTaintRule copy = new DeviceTaintRuleBuilder(rule).build();
    if (copy.getSpec() != null && copy.getSpec().getTaint() != null) {
      defaultTaintInPlace(copy.getSpec().getTaint(), now);
    }
    return copy;
  }

  /** A copy of the class; upstream defines no defaults for DeviceClass. */
  public static DeviceClass deviceClass(DeviceClass deviceClass) {
    return deviceClass == null ? null : new DeviceClassBuilder(deviceClass).build();
  }

  /** Formats an instant as Kubernetes serialises {@code metav1.Time}: RFC 3339, whole seconds. */
  public static String formatTime(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
  }

  // The helpers below only ever touch the private copy made by the public methods.

  private static void defaultSpecInPlace(ResourceClaimSpec spec) {
    if (spec == null || spec.getDevices() == null) {
      return;
    }
    for (DeviceRequest request : nonNull(spec.getDevices().getRequests())) {
      ExactDeviceRequest exactly = request.getExactly();
      if (exactly != null) {
        exactly.setAllocationMode(defaultMode(exactly.getAllocationMode()));
        exactly.setCount(defaultCount(exactly.getAllocationMode(), exactly.getCount()));
        defaultTolerationsInPlace(exactly.getTolerations());
      }
      for (DeviceSubRequest sub : nonNull(request.getFirstAvailable())) {
        sub.setAllocationMode(defaultMode(sub.getAllocationMode()));
        sub.setCount(defaultCount(sub.getAllocationMode(), sub.getCount()));
        defaultTolerationsInPlace(sub.getTolerations());
      }
    }
  }

  private static void defaultAllocationInPlace(AllocationResult allocation) {
    if (allocation == null || allocation.getDevices() == null) {
      return;
    }
    for (DeviceRequestAllocationResult result : nonNull(allocation.getDevices().getResults())) {
      defaultTolerationsInPlace(result.getTolerations());
    }
  }

  private static String defaultMode(String mode) {
    return mode == null || mode.isEmpty() ? ALLOCATION_MODE_EXACT_COUNT : mode;
  }

  /** Count is an int64 with omitempty upstream: unset and 0 are the same there. */
  private static Long defaultCount(String mode, Long count) {
    if (ALLOCATION_MODE_EXACT_COUNT.equals(mode) && (count == null || count == 0L)) {
      return 1L;
    }
    return count;
  }

  private static void defaultTolerationsInPlace(List<DeviceToleration> tolerations) {
    for (DeviceToleration t : nonNull(tolerations)) {
      if (t.getOperator() == null || t.getOperator().isEmpty()) {
        t.setOperator(TOLERATION_OPERATOR_EQUAL);
      }
    }
  }

  private static void defaultTaintInPlace(DeviceTaint taint, Instant now) {
    if (taint.getTimeAdded() == null || taint.getTimeAdded().isEmpty()) {
      taint.setTimeAdded(formatTime(now));
    }
  }

  private static <T> List<T> nonNull(List<T> list) {
    return list == null ? List.of() : list;
  }
}
