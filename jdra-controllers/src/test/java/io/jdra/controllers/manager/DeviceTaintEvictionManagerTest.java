package io.jdra.controllers.manager;

import static io.jdra.controllers.manager.ResourceClaimControllerIntegrationTest.claimOf;
import static io.jdra.controllers.manager.ResourceClaimControllerIntegrationTest.upstreamExample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import io.jdra.runtime.Ctx;
import io.jdra.testing.apiserver.WithApiServer;
import io.jdra.testing.objects.Allocations;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Both DRA controllers in the manager with upstream's device-taint-pod-noexecute demo: the
 * ResourceClaim controller creates the pod's claim from the template, the test plays the scheduler
 * (allocation and reservation; the pod is created bound), and the DeviceTaintRule makes the
 * device-taint eviction controller delete the pod.
 */
@WithApiServer
class DeviceTaintEvictionManagerTest {
  static final String NS = "basic-resourceclaimtemplate";
  static final Duration WAIT = Duration.ofSeconds(30);
  static final String DIR =
      "dra-example-driver/demo/examples/device-taints-tolerations/device-taint-pod-noexecute/";

  @Test
  void managerRunsDeviceTaintEviction(KubernetesClient client) throws Exception {
    ControllerManager.Handle mgr =
        ControllerManager.start(
            Ctx.background("controller-manager"),
            client,
            ControllerManagerOptions.defaults()
                .withControllers(List.of("resourceclaim", "device-taint-eviction"))
                .withFeatureGates(
                    FeatureGates.defaults().with(Feature.DRA_DEVICE_TAINT_RULES, true)));
    try {
      assertThat(mgr.controllers())
          .containsExactly("resourceclaim-controller", "device-taint-eviction-controller");
      apply(client, "1-basic-resourceclaimtemplate.yaml");
      apply(client, "2-pod-to-be-evicted.yaml");
      await()
          .atMost(WAIT)
          .until(() -> {
            Pod p = client.pods().inNamespace(NS).withName("pod-to-be-evicted").get();
            return !p.getStatus().getResourceClaimStatuses().isEmpty();
          });
      Pod pod = client.pods().inNamespace(NS).withName("pod-to-be-evicted").get();
      ResourceClaim claim = claimOf(client, pod);
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
                  .withName(pod.getMetadata().getName())
                  .withUid(pod.getMetadata().getUid())
                  .endReservedFor()
                  .endStatus()
                  .build())
          .updateStatus();
      apply(client, "3-device-taint-rule.yaml");
      await()
          .atMost(WAIT)
          .until(() -> {
            Pod p = client.pods().inNamespace(NS).withName("pod-to-be-evicted").get();
            return p == null || p.getMetadata().getDeletionTimestamp() != null;
          });
      await().atMost(WAIT).untilAsserted(() -> assertThat(events(client)).contains(MARKING));
    } finally {
      mgr.stop();
    }
  }

  static final String MARKING =
      "pod-to-be-evicted Normal DeviceTaintManagerEviction Marking for deletion"
          + " device-taint-eviction-controller";

  /** events.k8s.io Events as "regarding type reason note reportingController". */
  static List<String> events(KubernetesClient client) {
    return client.events().v1().events().inNamespace(NS).list().getItems().stream()
        .map(e ->
            String.join(
                " ",
                e.getRegarding().getName(),
                e.getType(),
                e.getReason(),
                e.getNote(),
                e.getReportingController()))
        .toList();
  }

  static void apply(KubernetesClient client, String file) throws Exception {
    Path path = upstreamExample(DIR + file);
    try (InputStream in = Files.newInputStream(path)) {
      for (HasMetadata obj : client.load(in).items()) {
        if (obj instanceof Pod p) {
          // Bound as by the scheduler, which does not exist yet.
          obj = new PodBuilder(p).editSpec().withNodeName("node-1").endSpec().build();
        }
        client.resource(obj).create();
      }
    }
  }
}
