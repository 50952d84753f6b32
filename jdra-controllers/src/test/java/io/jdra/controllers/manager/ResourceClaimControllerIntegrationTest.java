package io.jdra.controllers.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.resourceclaim.ResourceClaims;
import io.jdra.runtime.Ctx;
import io.jdra.testing.apiserver.WithApiServer;
import io.jdra.testing.objects.Allocations;
import io.jdra.testing.objects.UpstreamExamples;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The controller manager against the embedded API server with upstream's demo
 * basic-resourceclaimtemplate (two pods, one GPU each, from a template): claims appear with
 * generated names, owner references and annotations, and the pods' status records them; a claim the
 * "scheduler" allocated and reserved is deallocated and released once its pod is deleted; a manager
 * stopped and started again at any point converges to the same state.
 */
@WithApiServer
class ResourceClaimControllerIntegrationTest {
  static final String NS = "basic-resourceclaimtemplate";
  static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void basicResourceClaimTemplate(KubernetesClient client) throws Exception {
    applyDemo(client);
    ControllerManager.Handle mgr = start(client);
    try {
      for (String pod : List.of("pod0", "pod1")) {
        await().atMost(WAIT).untilAsserted(() -> assertGeneratedAndRecorded(client, pod));
      }
      assertThat(client.resources(ResourceClaim.class).inNamespace(NS).list().getItems())
          .hasSize(2);

      // The scheduler's part, done by the test: finalizer, allocation, reservation for pod0.
      Pod pod0 = client.pods().inNamespace(NS).withName("pod0").get();
      ResourceClaim claim = claimOf(client, pod0);
      claim =
          client
              .resources(ResourceClaim.class)
              .inNamespace(NS)
              .resource(
                  new ResourceClaimBuilder(claim)
                      .editMetadata()
                      .addToFinalizers(ResourceClaims.FINALIZER)
                      .endMetadata()
                      .build())
              .update();
      claim =
          client
              .resources(ResourceClaim.class)
              .inNamespace(NS)
              .resource(
                  new ResourceClaimBuilder(claim)
                      .withNewStatus()
                      .withAllocation(
                          Allocations.onNode("node-1", "gpu.example.com", List.of("gpu"), "gpu-0"))
                      .addNewReservedFor()
                      .withResource("pods")
                      .withName("pod0")
                      .withUid(pod0.getMetadata().getUid())
                      .endReservedFor()
                      .endStatus()
                      .build())
              .updateStatus();
      String claimName = claim.getMetadata().getName();

      client.pods().inNamespace(NS).withName("pod0").delete();
      // Reservation dropped, allocation cleared, finalizer removed; then the claim goes with its
      // pod.
      await()
          .atMost(WAIT)
          .until(() ->
              client.resources(ResourceClaim.class).inNamespace(NS).withName(claimName).get()
                  == null);
      assertThat(client.resources(ResourceClaim.class).inNamespace(NS).list().getItems())
          .hasSize(1);
    } finally {
      mgr.stop();
    }
  }

  /** Stop the manager after each step; a fresh one must finish the work. */
  @Test
  void restartConverges(KubernetesClient client) throws Exception {
    String ns = "restart";
    client
        .namespaces()
        .resource(
            new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata()
                .withName(ns)
                .endMetadata()
                .build())
        .create();
    client
        .resources(io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate.class)
        .inNamespace(ns)
        .resource(
            io.jdra.testing.objects.Make.claimTemplate("t")
                .namespace(ns)
                .request("gpu.example.com")
                .obj())
        .create();
    // Pods arrive while no manager runs, and more while managers come and go.
    for (int round = 0; round < 4; round++) {
      for (int i = 0; i < 5; i++) {
        client
            .pods()
            .inNamespace(ns)
            .resource(
                io.jdra.testing.objects.Make.pod("p" + round + "-" + i)
                    .namespace(ns)
                    .claimFromTemplate("gpu", "t")
                    .container("c", "gpu")
                    .obj())
            .create();
      }
      ControllerManager.Handle mgr = start(client);
      mgr.synced().get();
      mgr.stop();
    }
    ControllerManager.Handle mgr = start(client);
    try {
      await()
          .atMost(WAIT)
          .untilAsserted(() -> {
            for (Pod p : client.pods().inNamespace(ns).list().getItems()) {
              assertThat(p.getStatus().getResourceClaimStatuses()).hasSize(1);
            }
          });
      // Exactly one claim per pod: no duplicates from interrupted attempts.
      assertThat(client.resources(ResourceClaim.class).inNamespace(ns).list().getItems())
          .hasSize(20);
      for (Pod p : client.pods().inNamespace(ns).list().getItems()) {
        assertThat(claimOf(client, p)).isNotNull();
      }
    } finally {
      mgr.stop();
    }
  }

  static ControllerManager.Handle start(KubernetesClient client) {
    return ControllerManager.start(
        Ctx.background("controller-manager"),
        client,
        ControllerManagerOptions.defaults().withConcurrentResourceClaimSyncs(4));
  }

  static void assertGeneratedAndRecorded(KubernetesClient client, String podName) {
    Pod pod = client.pods().inNamespace(NS).withName(podName).get();
    assertThat(pod.getStatus().getResourceClaimStatuses()).hasSize(1);
    PodResourceClaimStatus status = pod.getStatus().getResourceClaimStatuses().get(0);
    assertThat(status.getName()).isEqualTo("gpu");
    assertThat(status.getResourceClaimName())
        .startsWith(podName + "-gpu-")
        .hasSize(podName.length() + 5 + 5);
    ResourceClaim claim = claimOf(client, pod);
    assertThat(claim.getMetadata().getAnnotations())
        .containsEntry(ResourceClaims.POD_CLAIM_NAME_ANNOTATION, "gpu");
    OwnerReference owner = claim.getMetadata().getOwnerReferences().get(0);
    assertThat(owner.getUid()).isEqualTo(pod.getMetadata().getUid());
    assertThat(owner.getController()).isTrue();
    assertThat(owner.getBlockOwnerDeletion()).isTrue();
    assertThat(claim.getSpec().getDevices().getRequests().get(0).getExactly().getDeviceClassName())
        .isEqualTo("gpu.example.com");
  }

  static ResourceClaim claimOf(KubernetesClient client, Pod pod) {
    String name = pod.getStatus().getResourceClaimStatuses().get(0).getResourceClaimName();
    return client
        .resources(ResourceClaim.class)
        .inNamespace(pod.getMetadata().getNamespace())
        .withName(name)
        .get();
  }

  static void applyDemo(KubernetesClient client) throws Exception {
    Path demo =
        upstreamExample(
            "dra-example-driver/demo/examples/basic-resourceclaimtemplate/basic-resourceclaimtemplate.yaml");
    try (InputStream in = Files.newInputStream(demo)) {
      for (HasMetadata obj : client.load(in).items()) {
        client.resource(obj).create();
      }
    }
  }

  static Path upstreamExample(String relative) {
    Optional<Path> dir = UpstreamExamples.dir();
    Assumptions.assumeTrue(
        dir.isPresent(), "upstream examples (../shared/upstream-dra/examples) absent; skipping");
    return dir.get().resolve(relative);
  }
}
