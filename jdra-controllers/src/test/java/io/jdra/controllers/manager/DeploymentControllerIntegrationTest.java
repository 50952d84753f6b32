package io.jdra.controllers.manager;

import static io.jdra.controllers.manager.WorkloadTestSupport.livePods;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.testing.apiserver.WithApiServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Deployment and ReplicaSet controllers in the manager against the embedded API server (the
 * kubelet's readiness played by the test): a Deployment of 3 gets one ReplicaSet {@code
 * <name>-<pod-template-hash>} and 3 pods and completes as {@code kubectl rollout status} judges it;
 * a template change rolls over to a new ReplicaSet within maxSurge/maxUnavailable; Recreate scales
 * the old ReplicaSet to zero before the new one gets pods; scaling changes the sizes only; old
 * ReplicaSets beyond revisionHistoryLimit are deleted.
 */
@WithApiServer
class DeploymentControllerIntegrationTest {
  static final Duration WAIT = Duration.ofSeconds(60);
  static final Map<String, String> LABELS = Map.of("app", "web");

  static Deployment deployment(String strategy, int replicas) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName("web")
        .endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .withRevisionHistoryLimit(1)
        .withNewSelector()
        .withMatchLabels(LABELS)
        .endSelector()
        .withNewStrategy()
        .withType(strategy)
        .endStrategy()
        .withTemplate(WorkloadTestSupport.template(LABELS, "nginx:1"))
        .endSpec()
        .build();
  }

  @Test
  void rollingUpdate(KubernetesClient client) throws Exception {
    String ns = "deploy-rolling";
    WorkloadTestSupport.namespace(client, ns);
    ControllerManager.Handle mgr = WorkloadTestSupport.start(client, "deployment", "replicaset");
    try {
      client.apps().deployments().inNamespace(ns).resource(deployment("RollingUpdate", 3)).create();
      ReplicaSet first = awaitRolledOut(client, ns, "nginx:1", 3);
      assertThat(first.getMetadata().getName())
          .isEqualTo("web-" + first.getMetadata().getLabels().get("pod-template-hash"));
      assertThat(first.getSpec().getSelector().getMatchLabels()).containsKey("pod-template-hash");
      assertThat(first.getMetadata().getAnnotations())
          .containsEntry("deployment.kubernetes.io/revision", "1")
          .containsEntry("deployment.kubernetes.io/desired-replicas", "3")
          .containsEntry("deployment.kubernetes.io/max-replicas", "4");
      Deployment d = client.apps().deployments().inNamespace(ns).withName("web").get();
      assertThat(condition(d, "Available").getReason()).isEqualTo("MinimumReplicasAvailable");
      assertThat(condition(d, "Progressing").getReason()).isEqualTo("NewReplicaSetAvailable");
      assertThat(condition(d, "Progressing").getMessage())
          .isEqualTo(
              "ReplicaSet \"" + first.getMetadata().getName() + "\" has successfully progressed.");

      setImage(client, ns, "nginx:2");
      ReplicaSet second = awaitRolledOut(client, ns, "nginx:2", 3);
      assertThat(second.getMetadata().getName()).isNotEqualTo(first.getMetadata().getName());
      assertThat(second.getMetadata().getAnnotations())
          .containsEntry("deployment.kubernetes.io/revision", "2");
      d = client.apps().deployments().inNamespace(ns).withName("web").get();
      assertThat(d.getMetadata().getAnnotations())
          .containsEntry("deployment.kubernetes.io/revision", "2");
      ReplicaSet old =
          client.apps().replicaSets().inNamespace(ns).withName(first.getMetadata().getName()).get();
      assertThat(old.getSpec().getReplicas()).isZero();

      // Scaling is no rollout: the one active ReplicaSet takes it.
      client
          .apps()
          .deployments()
          .inNamespace(ns)
          .withName("web")
          .edit(x -> new DeploymentBuilder(x).editSpec().withReplicas(5).endSpec().build());
      awaitRolledOut(client, ns, "nginx:2", 5);

      // A third revision: with revisionHistoryLimit 1 the first ReplicaSet goes.
      setImage(client, ns, "nginx:3");
      awaitRolledOut(client, ns, "nginx:3", 5);
      await()
          .atMost(WAIT)
          .until(() ->
              client
                      .apps()
                      .replicaSets()
                      .inNamespace(ns)
                      .withName(first.getMetadata().getName())
                      .get()
                  == null);
      assertThat(eventReasons(client, ns)).contains("ScalingReplicaSet");
    } finally {
      mgr.stop();
    }
  }

  @Test
  void recreate(KubernetesClient client) throws Exception {
    String ns = "deploy-recreate";
    WorkloadTestSupport.namespace(client, ns);
    ControllerManager.Handle mgr = WorkloadTestSupport.start(client, "deployment", "replicaset");
    try {
      client.apps().deployments().inNamespace(ns).resource(deployment("Recreate", 2)).create();
      awaitRolledOut(client, ns, "nginx:1", 2);
      setImage(client, ns, "nginx:2");
      // Never old and new pods at once: no nginx:2 pod before every nginx:1 pod is gone.
      await()
          .atMost(WAIT)
          .untilAsserted(() -> {
            List<Pod> pods = livePods(client, ns);
            assertThat(pods.stream().map(p -> image(p)).distinct().count()).isLessThanOrEqualTo(1);
            assertThat(pods).hasSize(2).allMatch(p -> image(p).equals("nginx:2"));
          });
      awaitRolledOut(client, ns, "nginx:2", 2);
    } finally {
      mgr.stop();
    }
  }

  static String image(Pod p) {
    return p.getSpec().getContainers().get(0).getImage();
  }

  static void setImage(KubernetesClient client, String ns, String image) {
    client
        .apps()
        .deployments()
        .inNamespace(ns)
        .withName("web")
        .edit(x ->
            new DeploymentBuilder(x)
                .editSpec()
                .editTemplate()
                .editSpec()
                .editFirstContainer()
                .withImage(image)
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build());
  }

  /**
   * Plays the kubelet (every pod of {@code image} becomes ready) until the Deployment is rolled out
   * as {@code kubectl rollout status} decides; returns the ReplicaSet of {@code image}.
   */
  static ReplicaSet awaitRolledOut(KubernetesClient client, String ns, String image, int n) {
    try {
      awaitRolledOut0(client, ns, image, n);
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      // What the controllers left, for the reader of the failure.
      throw new AssertionError(
          "not rolled out to "
              + n
              + " x "
              + image
              + ": deployment status "
              + client.apps().deployments().inNamespace(ns).withName("web").get().getStatus()
              + ", replica sets "
              + client.apps().replicaSets().inNamespace(ns).list().getItems().stream()
                  .map(rs ->
                      rs.getMetadata().getName()
                          + " "
                          + rs.getSpec().getReplicas()
                          + " "
                          + rs.getStatus())
                  .toList(),
          e);
    }
    return client.apps().replicaSets().inNamespace(ns).list().getItems().stream()
        .filter(rs ->
            rs.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().equals(image))
        .findFirst()
        .orElseThrow();
  }

  static void awaitRolledOut0(KubernetesClient client, String ns, String image, int n) {
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(100))
        .until(() -> {
          for (Pod p : livePods(client, ns)) {
            if (!"Running".equals(p.getStatus().getPhase())) {
              WorkloadTestSupport.markRunning(client, p, true);
            }
          }
          Deployment d = client.apps().deployments().inNamespace(ns).withName("web").get();
          return rolledOut(d, n) && livePods(client, ns).size() == n;
        });
  }

  /** kubectl's DeploymentStatusViewer: rolled out when all of these hold. */
  static boolean rolledOut(Deployment d, int n) {
    var s = d.getStatus();
    if (s == null || s.getObservedGeneration() == null) {
      return false;
    }
    DeploymentCondition p = condition(d, "Progressing");
    return s.getObservedGeneration() >= d.getMetadata().getGeneration()
        && (p == null || !"ProgressDeadlineExceeded".equals(p.getReason()))
        && nz(s.getUpdatedReplicas()) == n
        && nz(s.getReplicas()) == n
        && nz(s.getAvailableReplicas()) == n;
  }

  static int nz(Integer i) {
    return i == null ? 0 : i;
  }

  static DeploymentCondition condition(Deployment d, String type) {
    return d.getStatus().getConditions().stream()
        .filter(c -> c.getType().equals(type))
        .findFirst()
        .orElse(null);
  }

  static List<String> eventReasons(KubernetesClient client, String ns) {
    return client.resources(Event.class).inNamespace(ns).list().getItems().stream()
        .map(Event::getReason)
        .distinct()
        .toList();
  }
}
