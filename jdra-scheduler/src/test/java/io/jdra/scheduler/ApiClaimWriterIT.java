package io.jdra.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.scheduler.plugins.dynamicresources.ApiClaimWriter;
import io.jdra.testing.objects.Make;
import org.junit.jupiter.api.Test;

/**
 * PreBind's writes against the embedded API server: finalizer, then allocation and reservation; a
 * claim changed since the scheduler read it is read again and written (upstream's RetryOnConflict).
 */
class ApiClaimWriterIT {
  @Test
  void staleClaimIsReadAgainAndBound() throws Exception {
    try (TestCluster c = new TestCluster()) {
      ResourceClaim created =
          c.client
              .resource(Make.claim("gpu").namespace("default").request(TestCluster.DRIVER).obj())
              .create();
      // Someone else changes the claim after the scheduler read it: its copy is stale.
      c.client
          .resource(
              new ResourceClaimBuilder(created)
                  .editMetadata()
                  .addToLabels("changed", "yes")
                  .endMetadata()
                  .build())
          .update();
      ResourceClaim allocated = allocatedOnGpu0(created);
      Pod pod = createPod(c);

      ResourceClaim written = bind(c, created, allocated, pod);

      ResourceClaim stored = stored(c);
      assertThat(stored.getMetadata().getResourceVersion())
          .isEqualTo(written.getMetadata().getResourceVersion());
      assertThat(stored.getMetadata().getLabels()).containsEntry("changed", "yes");
      assertThat(stored.getMetadata().getFinalizers()).contains(ResourceClaims.FINALIZER);
      assertThat(stored.getStatus().getAllocation())
          .isEqualTo(allocated.getStatus().getAllocation());
      assertThat(ResourceClaims.isReservedForPod(pod, stored)).isTrue();
    }
  }

  @Test
  void freshClaimGetsFinalizerThenAllocationAndReservation() throws Exception {
    try (TestCluster c = new TestCluster()) {
      ResourceClaim created =
          c.client
              .resource(
                  Make.claim("gpu")
                      .namespace("default")
                      .labels("app", "x")
                      .request(TestCluster.DRIVER)
                      .obj())
              .create();
      ResourceClaim allocated = allocatedOnGpu0(created);
      Pod pod = createPod(c);

      ResourceClaim written = bind(c, created, allocated, pod);

      ResourceClaim stored = stored(c);
      assertThat(written).isEqualTo(stored);
      assertThat(stored.getMetadata().getLabels()).containsEntry("app", "x");
      assertThat(stored.getMetadata().getFinalizers()).containsExactly(ResourceClaims.FINALIZER);
      assertThat(stored.getSpec()).isEqualTo(created.getSpec());
      assertThat(stored.getStatus().getAllocation())
          .isEqualTo(allocated.getStatus().getAllocation());
      assertThat(stored.getStatus().getReservedFor())
          .singleElement()
          .satisfies(r -> {
            assertThat(r.getResource()).isEqualTo("pods");
            assertThat(r.getName()).isEqualTo("p");
            assertThat(r.getUid()).isEqualTo(pod.getMetadata().getUid());
          });
    }
  }

  @Test
  void claimWithFinalizerIsOnlyReserved() throws Exception {
    try (TestCluster c = new TestCluster()) {
      ResourceClaim created =
          c.client
              .resource(
                  new ResourceClaimBuilder(
                          Make.claim("gpu").namespace("default").request(TestCluster.DRIVER).obj())
                      .editMetadata()
                      .addToFinalizers(ResourceClaims.FINALIZER)
                      .endMetadata()
                      .build())
              .create();
      ResourceClaim allocated = allocatedOnGpu0(created);
      Pod pod = createPod(c);

      ResourceClaim written = bind(c, created, allocated, pod);

      assertThat(written.getMetadata().getFinalizers()).containsExactly(ResourceClaims.FINALIZER);
      assertThat(written.getStatus().getAllocation())
          .isEqualTo(allocated.getStatus().getAllocation());
      assertThat(ResourceClaims.isReservedForPod(pod, written)).isTrue();
    }
  }

  /** The scheduler's copy of {@code claim} with an allocation of gpu-0 on node-1. */
  private static ResourceClaim allocatedOnGpu0(ResourceClaim claim) {
    return new ResourceClaimBuilder(claim)
        .withStatus(
            Make.claim("gpu")
                .namespace("default")
                .request(TestCluster.DRIVER)
                .allocatedOn("node-1", TestCluster.DRIVER, "gpu-0")
                .obj()
                .getStatus())
        .build();
  }

  private static Pod createPod(TestCluster c) {
    return c.client.resource(Make.pod("p").namespace("default").claim("gpu", "gpu").obj()).create();
  }

  private static ResourceClaim bind(
      TestCluster c, ResourceClaim read, ResourceClaim allocated, Pod pod) throws Exception {
    return new ApiClaimWriter(c.client)
        .bindClaim(c.ctx, read, allocated, pod, pod.getSpec().getResourceClaims().get(0));
  }

  private static ResourceClaim stored(TestCluster c) {
    return c.client.resources(ResourceClaim.class).inNamespace("default").withName("gpu").get();
  }
}
