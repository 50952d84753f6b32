package io.jdra.controllers.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceCondition;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.testing.apiserver.WithApiServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The namespace controller in the manager against the embedded API server: a deleted namespace is
 * emptied and finalized; while content with a finalizer holds it, its conditions say what is left,
 * in upstream's words.
 */
@WithApiServer
class NamespaceControllerIntegrationTest {
  static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void emptiesAndFinalizesADeletedNamespace(KubernetesClient client) throws Exception {
    ControllerManager.Handle mgr = WorkloadTestSupport.startWithGc(client);
    try {
      String ns = "ns-it";
      WorkloadTestSupport.namespace(client, ns);
      client
          .configMaps()
          .inNamespace(ns)
          .resource(new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata().build())
          .create();
      client
          .pods()
          .inNamespace(ns)
          .resource(
              new PodBuilder()
                  .withNewMetadata()
                  .withName("p")
                  .endMetadata()
                  .withNewSpec()
                  .addNewContainer()
                  .withName("c")
                  .withImage("busybox")
                  .endContainer()
                  .endSpec()
                  .build())
          .create();
      client
          .configMaps()
          .inNamespace(ns)
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("held")
                  .withFinalizers("example.com/hold")
                  .endMetadata()
                  .build())
          .create();
      client.namespaces().withName(ns).delete();

      await()
          .atMost(WAIT)
          .untilAsserted(() -> {
            Namespace n = client.namespaces().withName(ns).get();
            assertThat(condition(n, "NamespaceContentRemaining").getMessage())
                .isEqualTo("Some resources are remaining: configmaps. has 1 resource instances");
            NamespaceCondition fin = condition(n, "NamespaceFinalizersRemaining");
            assertThat(fin.getStatus()).isEqualTo("True");
            assertThat(fin.getReason()).isEqualTo("SomeFinalizerRemain");
            assertThat(fin.getMessage())
                .isEqualTo(
                    "Some finalizers are remaining: example.com/hold in 1 resource instances");
            assertThat(condition(n, "NamespaceDeletionDiscoveryFailure").getReason())
                .isEqualTo("ResourcesDiscovered");
            assertThat(condition(n, "NamespaceDeletionContentFailure").getStatus())
                .isEqualTo("False");
          });
      assertThat(client.pods().inNamespace(ns).list().getItems()).isEmpty();
      assertThat(client.configMaps().inNamespace(ns).withName("c").get()).isNull();
      assertThat(client.namespaces().withName(ns).get().getSpec().getFinalizers())
          .containsExactly("kubernetes");

      client
          .configMaps()
          .inNamespace(ns)
          .withName("held")
          .edit(c ->
              new ConfigMapBuilder(c)
                  .editMetadata()
                  .withFinalizers(List.of())
                  .endMetadata()
                  .build());
      await().atMost(WAIT).until(() -> client.namespaces().withName(ns).get() == null);
    } finally {
      mgr.stop();
    }
  }

  static NamespaceCondition condition(Namespace n, String type) {
    return n.getStatus().getConditions().stream()
        .filter(c -> c.getType().equals(type))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no condition " + type + " in " + n.getStatus()));
  }
}
