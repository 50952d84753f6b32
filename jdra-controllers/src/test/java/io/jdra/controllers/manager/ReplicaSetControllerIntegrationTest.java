package io.jdra.controllers.manager;

import static io.jdra.controllers.manager.WorkloadTestSupport.livePods;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.testing.apiserver.WithApiServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ReplicaSet controller in the manager against the embedded API server: a ReplicaSet of 3 gets
 * 3 pods and reports them ready once the (hand-played) kubelet says so, a deleted pod is replaced,
 * a scale-down deletes the surplus, and the events say so.
 */
@WithApiServer
class ReplicaSetControllerIntegrationTest {
  static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void keepsReplicasAndReportsStatus(KubernetesClient client) throws Exception {
    String ns = "rs-it";
    WorkloadTestSupport.namespace(client, ns);
    ControllerManager.Handle mgr = WorkloadTestSupport.start(client, "replicaset");
    try {
      Map<String, String> labels = Map.of("app", "web");
      client
          .apps()
          .replicaSets()
          .inNamespace(ns)
          .resource(
              new ReplicaSetBuilder()
                  .withNewMetadata()
                  .withName("web")
                  .endMetadata()
                  .withNewSpec()
                  .withReplicas(3)
                  .withNewSelector()
                  .withMatchLabels(labels)
                  .endSelector()
                  .withTemplate(WorkloadTestSupport.template(labels, "nginx"))
                  .endSpec()
                  .build())
          .create();
      await().atMost(WAIT).until(() -> livePods(client, ns).size() == 3);
      for (Pod p : livePods(client, ns)) {
        WorkloadTestSupport.markRunning(client, p, true);
      }
      await()
          .atMost(WAIT)
          .untilAsserted(() -> {
            ReplicaSet rs = client.apps().replicaSets().inNamespace(ns).withName("web").get();
            assertThat(rs.getStatus().getReplicas()).isEqualTo(3);
            assertThat(rs.getStatus().getReadyReplicas()).isEqualTo(3);
            assertThat(rs.getStatus().getAvailableReplicas()).isEqualTo(3);
            assertThat(rs.getStatus().getFullyLabeledReplicas()).isEqualTo(3);
            assertThat(rs.getStatus().getObservedGeneration()).isEqualTo(1L);
          });

      String victim = livePods(client, ns).get(0).getMetadata().getName();
      client.pods().inNamespace(ns).withName(victim).withGracePeriod(0).delete();
      await()
          .atMost(WAIT)
          .until(() ->
              livePods(client, ns).size() == 3
                  && livePods(client, ns).stream()
                      .noneMatch(p -> p.getMetadata().getName().equals(victim)));

      client
          .apps()
          .replicaSets()
          .inNamespace(ns)
          .withName("web")
          .edit(rs -> new ReplicaSetBuilder(rs).editSpec().withReplicas(1).endSpec().build());
      await().atMost(WAIT).until(() -> livePods(client, ns).size() == 1);
      // The pod kept is a ready one: the new, not-yet-ready replacement went first.
      assertThat(livePods(client, ns).get(0).getMetadata().getName()).isNotEqualTo(victim);
      await()
          .atMost(WAIT)
          .untilAsserted(() -> {
            ReplicaSet rs = client.apps().replicaSets().inNamespace(ns).withName("web").get();
            assertThat(rs.getStatus().getReplicas()).isEqualTo(1);
            assertThat(rs.getStatus().getObservedGeneration()).isEqualTo(2L);
          });
      await()
          .atMost(WAIT)
          .untilAsserted(() ->
              assertThat(
                      client.resources(Event.class).inNamespace(ns).list().getItems().stream()
                          .map(Event::getReason)
                          .distinct())
                  .contains("SuccessfulCreate", "SuccessfulDelete"));
    } finally {
      mgr.stop();
    }
  }
}
