package io.jdra.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.apiserver.ApiServerOptions;
import io.jdra.apiserver.EmbeddedApiServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** awaitReleased against the embedded API server: it watches, it does not give up early. */
class CorrectnessReleaseIT {
  /** A claim controlled by a pod that does not exist, protected by the finalizer. */
  private static ResourceClaim heldByGonePod() {
    return new ResourceClaimBuilder()
        .withNewMetadata()
        .withNamespace("default")
        .withName("c")
        .withFinalizers(ResourceClaims.FINALIZER)
        .addNewOwnerReference()
        .withApiVersion("v1")
        .withKind("Pod")
        .withName("gone")
        .withUid("gone-uid")
        .withController(true)
        .endOwnerReference()
        .endMetadata()
        .withNewSpec()
        .withNewDevices()
        .endDevices()
        .endSpec()
        .build();
  }

  @Test
  void aClaimReleasedWhileWaitingEndsTheWaitAndAHeldOneIsReported() throws Exception {
    try (EmbeddedApiServer server = EmbeddedApiServer.start(ApiServerOptions.inMemory());
        KubernetesClient c =
            SchedulerBench.newClient(server, SchedulerBench.Transport.IN_PROCESS)) {
      c.resource(heldByGonePod()).create();

      assertThat(Correctness.awaitReleased(c, List.of("default"), Duration.ofMillis(300)))
          .containsExactly(
              "claim default/c of deleted pod gone is still protected by finalizer "
                  + ResourceClaims.FINALIZER);

      CompletableFuture<List<String>> waiting =
          CompletableFuture.supplyAsync(
              () -> Correctness.awaitReleased(c, List.of("default"), Duration.ofMinutes(1)));
      c.resources(ResourceClaim.class)
          .inNamespace("default")
          .withName("c")
          .edit(rc ->
              new ResourceClaimBuilder(rc).editMetadata().withFinalizers().endMetadata().build());
      long start = System.nanoTime();
      assertThat(waiting.get()).isEmpty();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }
  }
}
