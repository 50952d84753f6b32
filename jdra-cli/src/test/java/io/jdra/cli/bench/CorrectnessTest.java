package io.jdra.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.jdra.api.resourceclaim.ResourceClaims;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CorrectnessTest {
  /** A claim in ns "ns" controlled (or only owned) by pod "p" with uid {@code podUid}. */
  private static ResourceClaimBuilder claim(String podUid, boolean controller) {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName("c-" + podUid)
        .addNewOwnerReference()
        .withApiVersion("v1")
        .withKind("Pod")
        .withName("p")
        .withUid(podUid)
        .withController(controller)
        .endOwnerReference()
        .endMetadata();
  }

  private static ResourceClaim held(String podUid, boolean controller) {
    return claim(podUid, controller)
        .editMetadata()
        .withFinalizers(ResourceClaims.FINALIZER)
        .endMetadata()
        .withNewStatus()
        .withNewAllocation()
        .endAllocation()
        .addNewReservedFor()
        .withResource("pods")
        .withName("p")
        .withUid(podUid)
        .endReservedFor()
        .endStatus()
        .build();
  }

  @Test
  void claimsOfGonePodsMustBeReleased() {
    ResourceClaim finalizerOnly =
        claim("gone-2", true)
            .editMetadata()
            .withFinalizers(ResourceClaims.FINALIZER)
            .endMetadata()
            .build();
    ResourceClaim released = claim("gone-3", true).withNewStatus().endStatus().build();
    ResourceClaim shared =
        new ResourceClaimBuilder(held("x", true))
            .editMetadata()
            .withOwnerReferences()
            .endMetadata()
            .build();

    List<String> problems =
        Correctness.unreleased(
            List.of(
                held("live", true),
                held("gone-1", true),
                finalizerOnly,
                released,
                shared,
                held("gone-4", false)),
            Set.of("live"));

    assertThat(problems)
        .containsExactly(
            "claim ns/c-gone-1 of deleted pod p is still reserved, allocated, protected by finalizer "
                + ResourceClaims.FINALIZER,
            "claim ns/c-gone-2 of deleted pod p is still protected by finalizer "
                + ResourceClaims.FINALIZER);
  }
}
