package io.jdra.api.resourceclaim;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.jdra.api.resourceclaim.PodClaimName.Reason;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Claim helpers as upstream's {@code resourceclaim} package (Kubernetes 1.36), over fabric8 models.
 * Stateless and thread-safe; inputs are read, never modified. Missing optional fields (null lists,
 * null status) count as empty, as in Go.
 */
public final class ResourceClaims {
  /** Upstream {@code ResourceClaimReservedForMaxSize}: at most this many consumers. */
  public static final int RESERVED_FOR_MAX_SIZE = 256;

  /**
   * Upstream {@code resourceapi.Finalizer}: set on allocated claims so they are not deleted while
   * in use.
   */
  public static final String FINALIZER = "resource.kubernetes.io/delete-protection";

  /**
   * The annotation the ResourceClaim controller puts on a claim generated from a template: the name
   * of the pod's {@code spec.resourceClaims} entry it was created for.
   */
  public static final String POD_CLAIM_NAME_ANNOTATION = "resource.kubernetes.io/pod-claim-name";

  /** Marks the claim the scheduler made for a pod's DRA-backed extended resources. */
  public static final String EXTENDED_RESOURCE_CLAIM_ANNOTATION =
      "resource.kubernetes.io/extended-resource-claim";

  /**
   * The implicit extended resource name of every DeviceClass is this prefix plus the class name
   * (upstream {@code ResourceDeviceClassPrefix}).
   */
  public static final String DEVICE_CLASS_RESOURCE_PREFIX = "deviceclass.resource.kubernetes.io/";

  /** Room for a hyphen and five random characters in a 63-character generated name. */
  private static final int MAX_GENERATE_NAME_BASE = 57;

  private ResourceClaims() {}

  /**
   * The name of the ResourceClaim a pod's {@code spec.resourceClaims} entry refers to: the {@code
   * resourceClaimName}, or for a {@code resourceClaimTemplateName} the name recorded in {@code
   * pod.status.resourceClaimStatuses} (which must then be checked with {@link #isForPod}).
   */
  public static PodClaimName name(Pod pod, PodResourceClaim podClaim) {
    if (podClaim.getResourceClaimName() != null) {
      return new PodClaimName.Named(podClaim.getResourceClaimName(), false);
    }
    if (podClaim.getResourceClaimTemplateName() != null) {
      for (PodResourceClaimStatus status : claimStatuses(pod)) {
        if (Objects.equals(status.getName(), podClaim.getName())) {
          return status.getResourceClaimName() == null
              ? new PodClaimName.NotNeeded()
              : new PodClaimName.Named(status.getResourceClaimName(), true);
        }
      }
      return unavailable(Reason.CLAIM_NOT_FOUND, "Pod " + ref(pod));
    }
    return unavailable(
        Reason.API_UNSUPPORTED, "Pod " + ref(pod) + ", spec.resourceClaim " + podClaim.getName());
  }

  private static PodClaimName unavailable(Reason reason, String prefix) {
    return new PodClaimName.Unavailable(reason, prefix + ": " + reason.text());
  }

  private static List<PodResourceClaimStatus> claimStatuses(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getResourceClaimStatuses() == null) {
      return List.of();
    }
    return pod.getStatus().getResourceClaimStatuses();
  }

  /**
   * Whether the claim was created for the pod: same namespace, and the pod (by UID) is the claim's
   * controlling owner (the first owner reference with {@code controller: true}).
   */
  public static boolean isForPod(Pod pod, ResourceClaim claim) {
    return checkIsForPod(pod, claim).isEmpty();
  }

  /**
   * As {@link #isForPod}, with upstream's error text when not, e.g. {@code ResourceClaim default/c
   * was not created for Pod default/p (Pod is not owner)}.
   */
  public static Optional<String> checkIsForPod(Pod pod, ResourceClaim claim) {
    if (Objects.equals(namespace(claim), namespace(pod)) && isControlledBy(claim, pod)) {
      return Optional.empty();
    }
    if (PodGroupClaims.isForPodGroupOf(pod, claim)) {
      return Optional.empty(); // generated once for the pod's PodGroup (KEP 5729)
    }
    return Optional.of(
        "ResourceClaim "
            + ref(claim)
            + " was not created for Pod "
            + ref(pod)
            + " (Pod is not owner)");
  }

  /**
   * Upstream's owningPod check of the ResourceClaim controller: the owner reference that is a
   * controller and names a {@code v1} Pod, or null. Unlike {@link #isControlledBy} it does not stop
   * at a first controller of another kind.
   */
  public static OwnerReference owningPod(ResourceClaim claim) {
    ObjectMeta meta = claim.getMetadata();
    if (meta == null || meta.getOwnerReferences() == null) {
      return null;
    }
    for (OwnerReference ref : meta.getOwnerReferences()) {
      if (Boolean.TRUE.equals(ref.getController())
          && "v1".equals(ref.getApiVersion())
          && "Pod".equals(ref.getKind())) {
        return ref;
      }
    }
    return null;
  }

  /** Upstream metav1.IsControlledBy: the first controller reference carries the owner's UID. */
  static boolean isControlledBy(HasMetadata obj, HasMetadata owner) {
    ObjectMeta meta = obj.getMetadata();
    if (meta == null || meta.getOwnerReferences() == null) {
      return false;
    }
    for (OwnerReference ref : meta.getOwnerReferences()) {
      if (Boolean.TRUE.equals(ref.getController())) {
        return Objects.equals(nullToEmpty(ref.getUid()), uid(owner));
      }
    }
    return false;
  }

  /**
   * Whether the pod may use the claim: it is reserved for the pod or, for a PodGroup's claim, for
   * the pod's PodGroup (KEP 5729).
   */
  public static boolean isReservedForPodOrItsGroup(Pod pod, ResourceClaim claim) {
    return isReservedForPod(pod, claim) || PodGroupClaims.isReservedForPodGroup(pod, claim);
  }

  /** Whether the claim's {@code status.reservedFor} lists the pod's UID. */
  public static boolean isReservedForPod(Pod pod, ResourceClaim claim) {
    String uid = uid(pod);
    for (ResourceClaimConsumerReference reserved : reservedFor(claim)) {
      if (nullToEmpty(reserved.getUid()).equals(uid)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether one more consumer may be added to {@code status.reservedFor}: fewer than {@link
   * #RESERVED_FOR_MAX_SIZE} entries. (Upstream's own CanBeReserved always says yes and its
   * scheduler enforces this limit; both are folded in here.)
   */
  public static boolean canBeReserved(ResourceClaim claim) {
    return reservedFor(claim).size() < RESERVED_FOR_MAX_SIZE;
  }

  /**
   * Whether the claim is allocated and reserved for at least one consumer that is not a pod
   * (anything but API group "" and resource "pods"). Such consumers are opaque to the pod-centric
   * components, which must then leave the reservation and the allocation alone.
   */
  public static boolean isAllocatedWithNonPodReservation(ResourceClaim claim) {
    if (claim.getStatus() == null || claim.getStatus().getAllocation() == null) {
      return false;
    }
    for (ResourceClaimConsumerReference reserved : reservedFor(claim)) {
      if (!isPodReference(reserved)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the consumer reference points at a pod (core API group, resource "pods"). */
  public static boolean isPodReference(ResourceClaimConsumerReference ref) {
    return nullToEmpty(ref.getApiGroup()).isEmpty() && "pods".equals(ref.getResource());
  }

  /**
   * The {@code status.reservedFor} entry for a pod, as upstream's BindTo for pod claims; {@code
   * podClaim} is null for the claim the scheduler made for the pod's extended resources.
   *
   * @throws IllegalArgumentException with upstream's ErrAPIUnsupported text when the entry sets
   *     neither {@code resourceClaimName} nor {@code resourceClaimTemplateName}
   */
  public static ResourceClaimConsumerReference bindTo(Pod pod, PodResourceClaim podClaim) {
    if (podClaim != null
        && podClaim.getResourceClaimName() == null
        && podClaim.getResourceClaimTemplateName() == null) {
      throw new IllegalArgumentException(
          "pod \""
              + ref(pod)
              + "\", spec.resourceClaim \""
              + podClaim.getName()
              + "\": "
              + Reason.API_UNSUPPORTED.text());
    }
    // No apiGroup: the core group is "", which upstream's omitempty leaves out of the object.
    return new ResourceClaimConsumerReferenceBuilder()
        .withResource("pods")
        .withName(pod.getMetadata().getName())
        .withUid(pod.getMetadata().getUid())
        .build();
  }

  /**
   * The {@code metadata.generateName} the ResourceClaim controller uses for a claim generated for a
   * pod: {@code <pod>-<claim>-}; when longer than 57 characters both names are shortened in
   * proportion to their length (and, as upstream, the trailing hyphen is then dropped).
   */
  public static String generateName(String podName, String podClaimName) {
    String name = podName + "-" + podClaimName + "-";
    if (name.length() <= MAX_GENERATE_NAME_BASE) {
      return name;
    }
    int total = name.length();
    return podName.substring(0, podName.length() * MAX_GENERATE_NAME_BASE / total)
        + "-"
        + podClaimName.substring(0, podClaimName.length() * MAX_GENERATE_NAME_BASE / total);
  }

  /** {@code status.reservedFor}, empty when unset. */
  public static List<ResourceClaimConsumerReference> reservedFor(ResourceClaim claim) {
    ResourceClaimStatus status = claim.getStatus();
    if (status == null || status.getReservedFor() == null) {
      return List.of();
    }
    return status.getReservedFor();
  }

  /**
   * Whether two lists of pod claim statuses are equal entry by entry (same order, same names and
   * claim names), as upstream's PodStatusEqual.
   */
  public static boolean podStatusEqual(
      List<PodResourceClaimStatus> a, List<PodResourceClaimStatus> b) {
    List<PodResourceClaimStatus> x = a == null ? List.of() : a;
    List<PodResourceClaimStatus> y = b == null ? List.of() : b;
    if (x.size() != y.size()) {
      return false;
    }
    for (int i = 0; i < x.size(); i++) {
      if (!Objects.equals(x.get(i).getName(), y.get(i).getName())
          || !Objects.equals(x.get(i).getResourceClaimName(), y.get(i).getResourceClaimName())) {
        return false;
      }
    }
    return true;
  }

  /**
   * The opaque configurations that apply to one allocated device: those listing no requests, its
   * request, or its request's parent (for a subrequest), in their original order.
   */
  public static List<DeviceAllocationConfiguration> configForResult(
      List<DeviceAllocationConfiguration> configs, DeviceRequestAllocationResult result) {
    if (configs == null) {
      return List.of();
    }
    return configs.stream()
        .filter(
            c -> c.getOpaque() != null && RequestRefs.matches(c.getRequests(), result.getRequest()))
        .toList();
  }

  static String ref(HasMetadata obj) {
    return namespace(obj)
        + "/"
        + (obj.getMetadata() == null ? "" : nullToEmpty(obj.getMetadata().getName()));
  }

  private static String namespace(HasMetadata obj) {
    return obj.getMetadata() == null ? "" : nullToEmpty(obj.getMetadata().getNamespace());
  }

  private static String uid(HasMetadata obj) {
    return obj.getMetadata() == null ? "" : nullToEmpty(obj.getMetadata().getUid());
  }

  static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
