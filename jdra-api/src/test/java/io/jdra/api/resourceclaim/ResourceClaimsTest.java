package io.jdra.api.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfigurationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import io.jdra.api.resourceclaim.PodClaimName.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ResourceClaimsTest {
  private static final String POD_UID = "pod-uid-1";

  private static Pod pod(PodResourceClaimStatus... statuses) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("default")
        .withName("p1")
        .withUid(POD_UID)
        .endMetadata()
        .withNewStatus()
        .withResourceClaimStatuses(statuses)
        .endStatus()
        .build();
  }

  private static PodResourceClaimStatus status(String name, String claimName) {
    return new PodResourceClaimStatus(name, claimName);
  }

  private static PodResourceClaim direct(String name, String claimName) {
    return new PodResourceClaimBuilder().withName(name).withResourceClaimName(claimName).build();
  }

  private static PodResourceClaim template(String name, String templateName) {
    return new PodResourceClaimBuilder()
        .withName(name)
        .withResourceClaimTemplateName(templateName)
        .build();
  }

  static Stream<Arguments> names() {
    return Stream.of(
        Arguments.of(
            "resourceClaimName is used as is",
            pod(),
            direct("gpu", "shared-gpu"),
            new PodClaimName.Named("shared-gpu", false)),
        Arguments.of(
            "template: name from the pod status, owner must be checked",
            pod(status("other", "x"), status("gpu", "p1-gpu-abc12")),
            template("gpu", "gpu-template"),
            new PodClaimName.Named("p1-gpu-abc12", true)),
        Arguments.of(
            "template: status without a claim name means not needed",
            pod(status("gpu", null)),
            template("gpu", "gpu-template"),
            new PodClaimName.NotNeeded()),
        Arguments.of(
            "template: no status entry yet",
            pod(status("other", "x")),
            template("gpu", "gpu-template"),
            new PodClaimName.Unavailable(
                Reason.CLAIM_NOT_FOUND, "Pod default/p1: ResourceClaim not created yet")),
        Arguments.of(
            "template: pod without status",
            new PodBuilder(pod()).withStatus(null).build(),
            template("gpu", "gpu-template"),
            new PodClaimName.Unavailable(
                Reason.CLAIM_NOT_FOUND, "Pod default/p1: ResourceClaim not created yet")),
        Arguments.of(
            "neither field set",
            pod(),
            new PodResourceClaimBuilder().withName("gpu").build(),
            new PodClaimName.Unavailable(
                Reason.API_UNSUPPORTED,
                "Pod default/p1, spec.resourceClaim gpu: none of the supported fields are set")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("names")
  void claimNameForPodEntry(String name, Pod pod, PodResourceClaim claim, PodClaimName expected) {
    assertThat(ResourceClaims.name(pod, claim)).isEqualTo(expected);
  }

  private static OwnerReference owner(String uid, Boolean controller) {
    return new OwnerReferenceBuilder()
        .withApiVersion("v1")
        .withKind("Pod")
        .withName("p1")
        .withUid(uid)
        .withController(controller)
        .build();
  }

  private static ResourceClaim claim(String namespace, OwnerReference... owners) {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName("c1")
        .withOwnerReferences(owners)
        .endMetadata()
        .build();
  }

  static Stream<Arguments> owners() {
    return Stream.of(
        Arguments.of("controller is the pod", claim("default", owner(POD_UID, true)), true),
        Arguments.of("no owner", claim("default"), false),
        Arguments.of("owner but not controller", claim("default", owner(POD_UID, false)), false),
        Arguments.of("owner with controller unset", claim("default", owner(POD_UID, null)), false),
        Arguments.of("controller is another pod", claim("default", owner("other", true)), false),
        Arguments.of(
            "first controller decides",
            claim("default", owner(POD_UID, false), owner("other", true), owner(POD_UID, true)),
            false),
        Arguments.of(
            "non-controller refs are skipped",
            claim("default", owner("other", false), owner(POD_UID, true)),
            true),
        Arguments.of("other namespace", claim("kube-system", owner(POD_UID, true)), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("owners")
  void isForPodChecksControllerAndNamespace(String name, ResourceClaim claim, boolean expected) {
    assertThat(ResourceClaims.isForPod(pod(), claim)).isEqualTo(expected);
    if (expected) {
      assertThat(ResourceClaims.checkIsForPod(pod(), claim)).isEmpty();
    } else {
      assertThat(ResourceClaims.checkIsForPod(pod(), claim))
          .contains(
              "ResourceClaim "
                  + claim.getMetadata().getNamespace()
                  + "/c1 was not created for Pod default/p1 (Pod is not owner)");
    }
  }

  private static ResourceClaimConsumerReference consumer(
      String group, String resource, String uid) {
    return new ResourceClaimConsumerReferenceBuilder()
        .withApiGroup(group)
        .withResource(resource)
        .withName("x")
        .withUid(uid)
        .build();
  }

  private static ResourceClaim reservedClaim(
      boolean allocated, List<ResourceClaimConsumerReference> reservedFor) {
    ResourceClaimBuilder b =
        new ResourceClaimBuilder(claim("default"))
            .withNewStatus()
            .withReservedFor(reservedFor)
            .endStatus();
    if (allocated) {
      b.editStatus().withNewAllocation().endAllocation().endStatus();
    }
    return b.build();
  }

  static Stream<Arguments> reservations() {
    ResourceClaimConsumerReference thisPod = consumer("", "pods", POD_UID);
    ResourceClaimConsumerReference otherPod = consumer("", "pods", "other");
    ResourceClaimConsumerReference workload = consumer("scheduling.k8s.io", "podgroups", "pg");
    return Stream.of(
        // claim, reserved for pod, non-pod reservation
        Arguments.of("unallocated, empty", reservedClaim(false, List.of()), false, false),
        Arguments.of(
            "reserved for the pod", reservedClaim(true, List.of(otherPod, thisPod)), true, false),
        Arguments.of(
            "reserved for another pod", reservedClaim(true, List.of(otherPod)), false, false),
        Arguments.of(
            "reserved for a pod group", reservedClaim(true, List.of(workload)), false, true),
        Arguments.of(
            "unallocated claim never counts as non-pod reserved",
            reservedClaim(false, List.of(workload)),
            false,
            false),
        Arguments.of(
            "a core resource other than pods is not a pod",
            reservedClaim(true, List.of(consumer("", "nodes", POD_UID))),
            true,
            true),
        Arguments.of("no status", claim("default"), false, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("reservations")
  void reservationChecks(String name, ResourceClaim claim, boolean forPod, boolean nonPod) {
    assertThat(ResourceClaims.isReservedForPod(pod(), claim)).isEqualTo(forPod);
    assertThat(ResourceClaims.isAllocatedWithNonPodReservation(claim)).isEqualTo(nonPod);
  }

  static Stream<Arguments> capacity() {
    return Stream.of(
        Arguments.of(0, true),
        Arguments.of(1, true),
        Arguments.of(255, true),
        Arguments.of(256, false),
        Arguments.of(300, false));
  }

  @ParameterizedTest(name = "{0} reservations: can reserve {1}")
  @MethodSource("capacity")
  void canBeReservedBelowTheLimit(int count, boolean expected) {
    List<ResourceClaimConsumerReference> refs = new ArrayList<>();
    IntStream.range(0, count).forEach(i -> refs.add(consumer("", "pods", "uid-" + i)));
    assertThat(ResourceClaims.canBeReserved(reservedClaim(true, refs))).isEqualTo(expected);
    assertThat(ResourceClaims.RESERVED_FOR_MAX_SIZE).isEqualTo(256);
  }

  @Test
  void bindToReferencesThePod() {
    assertThat(ResourceClaims.bindTo(pod(), template("gpu", "t")))
        .isEqualTo(consumer(null, "pods", POD_UID).toBuilder().withName("p1").build());
    assertThatThrownBy(() ->
            ResourceClaims.bindTo(pod(), new PodResourceClaimBuilder().withName("gpu").build()))
        .hasMessage(
            "pod \"default/p1\", spec.resourceClaim \"gpu\": none of the supported fields are set");
  }

  @Test
  void podStatusEqualComparesInOrder() {
    List<PodResourceClaimStatus> a = List.of(status("a", "x"), status("b", null));
    assertThat(ResourceClaims.podStatusEqual(a, List.of(status("a", "x"), status("b", null))))
        .isTrue();
    assertThat(ResourceClaims.podStatusEqual(a, List.of(status("b", null), status("a", "x"))))
        .isFalse();
    assertThat(ResourceClaims.podStatusEqual(a, List.of(status("a", "x"), status("b", "y"))))
        .isFalse();
    assertThat(ResourceClaims.podStatusEqual(a, List.of(status("a", "x")))).isFalse();
    assertThat(ResourceClaims.podStatusEqual(null, List.of())).isTrue();
  }

  @Test
  void configForResultPicksOpaqueConfigsForTheRequest() {
    DeviceAllocationConfiguration all = opaque("all");
    DeviceAllocationConfiguration gpu = opaque("gpu", "gpu");
    DeviceAllocationConfiguration large = opaque("large", "gpu/large");
    DeviceAllocationConfiguration nic = opaque("nic", "nic");
    DeviceAllocationConfiguration notOpaque =
        new DeviceAllocationConfigurationBuilder().withSource("FromClaim").build();
    List<DeviceAllocationConfiguration> configs = List.of(all, gpu, large, nic, notOpaque);
    var result =
        new DeviceRequestAllocationResultBuilder()
            .withRequest("gpu/large")
            .withDriver("d")
            .withPool("p")
            .withDevice("x")
            .build();
    assertThat(ResourceClaims.configForResult(configs, result)).containsExactly(all, gpu, large);
    result.setRequest("gpu/small");
    assertThat(ResourceClaims.configForResult(configs, result)).containsExactly(all, gpu);
    result.setRequest("nic");
    assertThat(ResourceClaims.configForResult(configs, result)).containsExactly(all, nic);
  }

  private static DeviceAllocationConfiguration opaque(String driverSuffix, String... requests) {
    return new DeviceAllocationConfigurationBuilder()
        .withSource("FromClaim")
        .withRequests(requests)
        .withNewOpaque()
        .withDriver("driver-" + driverSuffix)
        .endOpaque()
        .build();
  }

  static Stream<Arguments> generateNames() {
    String pod63 = "p".repeat(40);
    return Stream.of(
        Arguments.of("my-pod", "gpu", "my-pod-gpu-"),
        Arguments.of("a".repeat(50), "claim", "a".repeat(50) + "-claim-"),
        // 51 + 1 + 5 + 1 = 58 > 57: both parts shrink by 57/58, no trailing hyphen
        Arguments.of("a".repeat(51), "claim", "a".repeat(50) + "-" + "claim".substring(0, 4)),
        Arguments.of(pod63, "c".repeat(40), "p".repeat(27) + "-" + "c".repeat(27)));
  }

  @ParameterizedTest(name = "{0} + {1}")
  @MethodSource("generateNames")
  void generateNameAsTheClaimController(String pod, String claim, String expected) {
    assertThat(ResourceClaims.generateName(pod, claim)).isEqualTo(expected);
  }

  @Test
  void upstreamConstants() {
    assertThat(ResourceClaims.FINALIZER).isEqualTo("resource.kubernetes.io/delete-protection");
    assertThat(ResourceClaims.POD_CLAIM_NAME_ANNOTATION)
        .isEqualTo("resource.kubernetes.io/pod-claim-name");
  }

  private static OwnerReference owner(String apiVersion, String kind, Boolean controller) {
    return new OwnerReferenceBuilder()
        .withApiVersion(apiVersion)
        .withKind(kind)
        .withName(kind.toLowerCase() + "-1")
        .withUid(kind + "-uid")
        .withController(controller)
        .build();
  }

  static Stream<Arguments> owningPodCases() {
    OwnerReference pod = owner("v1", "Pod", true);
    return Stream.of(
        Arguments.of("no owner references", null, null),
        Arguments.of("no owners", List.of(), null),
        Arguments.of("the v1 Pod controller", List.of(pod), pod),
        Arguments.of("a Pod that is no controller", List.of(owner("v1", "Pod", false)), null),
        Arguments.of("controller flag unset", List.of(owner("v1", "Pod", null)), null),
        Arguments.of("a Pod of another version", List.of(owner("v2", "Pod", true)), null),
        Arguments.of("another kind", List.of(owner("apps/v1", "ReplicaSet", true)), null),
        Arguments.of(
            "the Pod after a controller of another kind",
            List.of(owner("apps/v1", "ReplicaSet", true), pod),
            pod));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("owningPodCases")
  void owningPodIsTheControllingV1Pod(
      String name, List<OwnerReference> refs, OwnerReference expected) {
    ResourceClaim claim =
        new ResourceClaimBuilder()
            .withNewMetadata()
            .withNamespace("default")
            .withName("c")
            .withOwnerReferences(refs)
            .endMetadata()
            .build();
    assertThat(ResourceClaims.owningPod(claim)).isEqualTo(expected);
  }
}
