package io.jdra.api.features;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The Dynamic Resource Allocation feature gates of Kubernetes, under their upstream names, with the
 * stage, default and lock they have in Kubernetes 1.36.
 *
 * <p>Source: the versioned feature specs ({@code defaultVersionedKubernetesFeatureGates}) of a
 * kubernetes/kubernetes development snapshot after 1.36 (it already carries 1.37 entries); for each
 * gate the entry with the highest version that is at most 1.36 was taken. {@code
 * DRAResourceClaimGranularStatusAuthorization} is not in that scheduler-side list; its 1.36 stage
 * comes from the Kubernetes feature-gate reference (beta, on by default since 1.36). Gates that
 * only appear in 1.37 ({@code DRADerivedAttributes}, {@code DRADeviceCompatibilityGroups}, {@code
 * DRAFractionalCapacityRange}, {@code DRAOptionalNodeOperations}) and gates removed before 1.36
 * ({@code DRAControlPlaneController}, removed after 1.31) are deliberately absent. Where the
 * Kubernetes website's feature-gate pages disagree with that code (one page lists {@code
 * DRAResourceClaimDeviceStatus} as stable from 1.36, while the code has it beta until it goes GA in
 * 1.37), the code wins. Gates of other API groups that mention DRA (e.g. {@code
 * DRAWorkloadResourceClaims} fields live in scheduling.k8s.io Workloads) are listed for {@code
 * --feature-gates} but guard no resource.k8s.io field.
 *
 * <p>Immutable and thread-safe.
 */
public enum Feature {
  /** The DRA API and its use by scheduler and kubelet (KEP 4381). GA since 1.34, locked in 1.35. */
  DYNAMIC_RESOURCE_ALLOCATION("DynamicResourceAllocation", Stage.GA, true, true),
  /** {@code adminAccess} in device requests and results (KEP 5018). GA and locked in 1.36. */
  DRA_ADMIN_ACCESS("DRAAdminAccess", Stage.GA, true, true),
  /** Consumable device capacity and multiple allocations of one device (KEP 5075). */
  DRA_CONSUMABLE_CAPACITY("DRAConsumableCapacity", Stage.BETA, true, false),
  /** Binding conditions that delay pod binding until the device is ready (KEP 5007). */
  DRA_DEVICE_BINDING_CONDITIONS("DRADeviceBindingConditions", Stage.BETA, true, false),
  /** The DeviceTaintRule API (KEP 5055); beta but off by default in 1.36. */
  DRA_DEVICE_TAINT_RULES("DRADeviceTaintRules", Stage.BETA, false, false),
  /** Device taints in ResourceSlices and tolerations in requests (KEP 5055). */
  DRA_DEVICE_TAINTS("DRADeviceTaints", Stage.BETA, true, false),
  /** Extended resources backed by DRA, {@code DeviceClass.spec.extendedResourceName} (KEP 5004). */
  DRA_EXTENDED_RESOURCE("DRAExtendedResource", Stage.BETA, true, false),
  /** List-typed device attributes (KEP 5491). */
  DRA_LIST_TYPE_ATTRIBUTES("DRAListTypeAttributes", Stage.ALPHA, false, false),
  /** Node allocatable resources backed by DRA (KEP 5517). */
  DRA_NODE_ALLOCATABLE_RESOURCES("DRANodeAllocatableResources", Stage.ALPHA, false, false),
  /** Shared counters, consumed counters and per-device node selection (KEP 4815). */
  DRA_PARTITIONABLE_DEVICES("DRAPartitionableDevices", Stage.BETA, true, false),
  /** {@code firstAvailable}: a prioritized list of alternative subrequests (KEP 4816). */
  DRA_PRIORITIZED_LIST("DRAPrioritizedList", Stage.GA, true, false),
  /** {@code ResourceClaim.status.devices}, written by drivers (KEP 4817). */
  DRA_RESOURCE_CLAIM_DEVICE_STATUS("DRAResourceClaimDeviceStatus", Stage.BETA, true, false),
  /** Fine-grained authorization of ResourceClaim status updates. */
  DRA_RESOURCE_CLAIM_GRANULAR_STATUS_AUTHORIZATION(
      "DRAResourceClaimGranularStatusAuthorization", Stage.BETA, true, false),
  /** Aborting the scheduler's per-node DRA filter after a timeout. */
  DRA_SCHEDULER_FILTER_TIMEOUT("DRASchedulerFilterTimeout", Stage.BETA, true, false),
  /**
   * The scheduler's GangScheduling plugin: the pods of a PodGroup with a {@code gang} policy are
   * scheduled only once {@code minCount} of them exist (KEP 4671). Not a DRA gate; listed because
   * the podgroup demo needs it.
   */
  GANG_SCHEDULING("GangScheduling", Stage.ALPHA, false, false),
  /**
   * The {@code scheduling.k8s.io/v1alpha2} Workload and PodGroup APIs and {@code
   * pod.spec.schedulingGroup} (KEP 4671). Not a DRA gate; DRAWorkloadResourceClaims builds on it.
   */
  GENERIC_WORKLOAD("GenericWorkload", Stage.ALPHA, false, false),
  /** Claims reserved for and replicated per PodGroup (KEP 5729). */
  DRA_WORKLOAD_RESOURCE_CLAIMS("DRAWorkloadResourceClaims", Stage.ALPHA, false, false);

  /** Maturity of a feature, as upstream's {@code featuregate.prerelease}. */
  public enum Stage {
    ALPHA("ALPHA"),
    BETA("BETA"),
    GA("GA"),
    DEPRECATED("DEPRECATED");

    private final String label;

    Stage(String label) {
      this.label = label;
    }

    /** The upper-case label printed in help texts ("ALPHA", "BETA", "GA", "DEPRECATED"). */
    public String label() {
      return label;
    }
  }

  /** The Kubernetes minor release whose stages and defaults this enum describes. */
  public static final String KUBERNETES_VERSION = "1.36";

  private static final Map<String, Feature> BY_NAME =
      Arrays.stream(values())
          .collect(Collectors.toUnmodifiableMap(f -> f.gateName, Function.identity()));

  private final String gateName;
  private final Stage stage;
  private final boolean defaultEnabled;
  private final boolean lockedToDefault;

  Feature(String gateName, Stage stage, boolean defaultEnabled, boolean lockedToDefault) {
    this.gateName = gateName;
    this.stage = stage;
    this.defaultEnabled = defaultEnabled;
    this.lockedToDefault = lockedToDefault;
  }

  /** The upstream gate name, e.g. {@code DRAAdminAccess}. */
  public String gateName() {
    return gateName;
  }

  /** The stage in Kubernetes {@value #KUBERNETES_VERSION}. */
  public Stage stage() {
    return stage;
  }

  /** Whether the gate is on by default in Kubernetes {@value #KUBERNETES_VERSION}. */
  public boolean defaultEnabled() {
    return defaultEnabled;
  }

  /**
   * Whether Kubernetes {@value #KUBERNETES_VERSION} refuses to change this gate from its default.
   * jdra nevertheless accepts an explicit setting, so that older behaviour can be reproduced.
   */
  public boolean lockedToDefault() {
    return lockedToDefault;
  }

  /** The feature with exactly this (case-sensitive) upstream gate name. */
  public static Optional<Feature> byName(String gateName) {
    return Optional.ofNullable(BY_NAME.get(gateName));
  }
}
