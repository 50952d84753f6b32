package io.jdra.api.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClaimCopiesTest {
  private static ResourceClaim claim() {
    ResourceClaim c =
        new ResourceClaimBuilder()
            .withNewMetadata()
            .withName("c")
            .withNamespace("ns")
            .withResourceVersion("3")
            .endMetadata()
            .withNewSpec()
            .withNewDevices()
            .addNewRequest()
            .withName("gpu")
            .withNewExactly()
            .withDeviceClassName("gpu.example.com")
            .endExactly()
            .endRequest()
            .endDevices()
            .endSpec()
            .withNewStatus()
            .withNewAllocation()
            .withAllocationTimestamp("2026-11-27T10:00:00Z")
            .endAllocation()
            .addNewReservedFor()
            .withResource("pods")
            .withName("p")
            .withUid("uid-p")
            .endReservedFor()
            .endStatus()
            .build();
    c.getStatus().setAdditionalProperty("statusFuture", 1);
    c.setAdditionalProperty("claimFuture", true);
    return c;
  }

  @Test
  void aStatusCopySharesItsFieldsAndKeepsUnknownOnes() {
    ResourceClaim c = claim();
    ResourceClaimStatus old = c.getStatus();

    ResourceClaimStatus copy = ClaimCopies.status(old);

    assertThat(copy).isNotSameAs(old).isEqualTo(old);
    assertThat(copy.getAllocation()).isSameAs(old.getAllocation());
    assertThat(copy.getReservedFor()).isSameAs(old.getReservedFor());
    assertThat(copy.getDevices()).isSameAs(old.getDevices());
    assertThat(copy.getAdditionalProperties()).containsEntry("statusFuture", 1);
    assertThat(ClaimCopies.status(null)).isEqualTo(new ResourceClaimStatus());
  }

  @Test
  void aClaimCopyWithNewPartsEqualsABuildersCopyAndLeavesTheOriginal() {
    ResourceClaim c = claim();
    ObjectMeta meta = new ObjectMetaBuilder(c.getMetadata()).withFinalizers("f").build();
    ResourceClaimStatus status = ClaimCopies.status(c.getStatus());
    status.setReservedFor(List.<ResourceClaimConsumerReference>of());
    status.setAllocation((AllocationResult) null);

    ResourceClaim copy = ClaimCopies.with(c, meta, status);
    ResourceClaim viaBuilder =
        new ResourceClaimBuilder(c)
            .withMetadata(meta)
            .editStatus()
            .withReservedFor(List.of())
            .withAllocation(null)
            .endStatus()
            .build();

    assertThat(copy).isEqualTo(viaBuilder);
    assertThat(copy.getAdditionalProperties()).containsEntry("claimFuture", true);
    assertThat(copy.getSpec()).isSameAs(c.getSpec());
    assertThat(c).as("the original").isEqualTo(claim());
  }
}
