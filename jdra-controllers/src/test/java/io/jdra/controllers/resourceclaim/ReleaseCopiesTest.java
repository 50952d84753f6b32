package io.jdra.controllers.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.client.Clients;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The claims SyncClaim writes when it releases a claim (status, then finalizer) are built as
 * shallow copies; each is what a builder's deep copy with the same change gives (equal, same JSON
 * on the wire), and the claim it came from stays as it was.
 */
class ReleaseCopiesTest {
  static final KubernetesSerialization JSON = Clients.sharedSerialization();

  /** A claim as the informer holds it: allocated, reserved for two pods, with the finalizer. */
  static final String CLAIM =
      """
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
       "metadata":{"name":"p-gpu-x1","generateName":"p-gpu-","namespace":"ns","uid":"c-uid",
        "resourceVersion":"42","creationTimestamp":"2026-11-27T10:00:00Z",
        "annotations":{"resource.kubernetes.io/pod-claim-name":"gpu"},
        "finalizers":["example.com/other","resource.kubernetes.io/delete-protection"],
        "ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"p-uid",
          "controller":true,"blockOwnerDeletion":true}]},
       "spec":{"devices":{"requests":[{"name":"req-0","exactly":{"deviceClassName":"gpu",
        "allocationMode":"ExactCount","count":1}}]}},
       "status":{"allocation":{"allocationTimestamp":"2026-11-27T10:00:01Z",
         "devices":{"results":[{"request":"req-0","driver":"gpu.example.com","pool":"node-1",
           "device":"gpu-0"}]},
         "nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name",
           "operator":"In","values":["node-1"]}]}]}},
        "devices":[{"driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}],
        "reservedFor":[{"resource":"pods","name":"p","uid":"p-uid"},
          {"resource":"pods","name":"q","uid":"q-uid"}],
        "future":"kept"}}
      """;

  static ResourceClaim claim() {
    return JSON.unmarshal(CLAIM, ResourceClaim.class);
  }

  /** What SyncClaim built before, with the client's builder. */
  static ResourceClaim releasedViaBuilder(
      ResourceClaim claim, List<ResourceClaimConsumerReference> valid, boolean deallocate) {
    ResourceClaimBuilder b = new ResourceClaimBuilder(claim);
    b.editOrNewStatus().withReservedFor(valid).endStatus();
    if (deallocate) {
      b.editStatus().withAllocation(null).withDevices(List.of()).endStatus();
    }
    return b.build();
  }

  void assertSame(ResourceClaim fast, ResourceClaim viaBuilder) {
    assertThat(fast).isEqualTo(viaBuilder);
    assertThat(JSON.asJson(fast)).isEqualTo(JSON.asJson(viaBuilder));
  }

  @Test
  void releasedClaimsAreTheBuildersCopies() {
    ResourceClaim claim = claim();
    String before = JSON.asJson(claim);
    List<ResourceClaimConsumerReference> one = List.of(claim.getStatus().getReservedFor().get(1));

    assertSame(SyncClaim.released(claim, one, false), releasedViaBuilder(claim, one, false));
    assertSame(
        SyncClaim.released(claim, List.of(), false), releasedViaBuilder(claim, List.of(), false));
    assertSame(
        SyncClaim.released(claim, List.of(), true), releasedViaBuilder(claim, List.of(), true));
    assertThat(JSON.asJson(claim)).isEqualTo(before);

    ResourceClaim noStatus = claim();
    noStatus.setStatus(null);
    assertSame(
        SyncClaim.released(noStatus, List.of(), false),
        releasedViaBuilder(noStatus, List.of(), false));
  }

  @Test
  void claimWithoutFinalizerIsTheBuildersCopy() {
    ResourceClaim claim = claim();
    String before = JSON.asJson(claim);
    List<String> finalizers = new ArrayList<>(claim.getMetadata().getFinalizers());
    finalizers.remove(ResourceClaims.FINALIZER);

    ResourceClaim viaBuilder =
        new ResourceClaimBuilder(claim)
            .editMetadata()
            .withFinalizers(finalizers)
            .endMetadata()
            .build();

    assertSame(SyncClaim.withoutFinalizer(claim, finalizers), viaBuilder);
    assertThat(JSON.asJson(claim)).isEqualTo(before);
  }
}
