package io.jdra.controllers.deployment;

import static io.jdra.controllers.deployment.Harness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.PodTemplateHash;
import io.jdra.runtime.workqueue.MockQueue;
import io.jdra.testing.apiserver.WithApiServer;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One syncDeployment step per case, as upstream's sync/rolling/recreate/progress tests: the new
 * ReplicaSet, rolling steps bounded by maxSurge and maxUnavailable, Recreate, proportional scaling,
 * paused, progress deadline, hash collisions. Writes go to the embedded API server; reads come from
 * caches the case fills.
 */
@WithApiServer
class SyncDeploymentTest {
  record Case(String name, Consumer<Harness> given, Consumer<Harness> then) {
    @Override
    public String toString() {
      return name;
    }
  }

  static DeploymentBuilder rolling(int replicas, String image, int surge, int unavailable) {
    return Harness.deployment(replicas, image)
        .editSpec()
        .withNewStrategy()
        .withType("RollingUpdate")
        .withNewRollingUpdate()
        .withMaxSurge(new IntOrString(surge))
        .withMaxUnavailable(new IntOrString(unavailable))
        .endRollingUpdate()
        .endStrategy()
        .endSpec();
  }

  static DeploymentCondition condition(Harness h, String type) {
    return DeploymentUtil.condition(h.status(), type);
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "a new Deployment gets its ReplicaSet <name>-<hash> with all replicas",
            h -> h.deployment(Harness.deployment(3, "nginx:1").build()),
            h -> {
              Deployment d = h.serverDeployment();
              ReplicaSet rs = h.serverRs("nginx:1");
              String hash = PodTemplateHash.compute(d.getSpec().getTemplate(), null);
              assertThat(rs.getMetadata().getName()).isEqualTo("web-" + hash);
              assertThat(rs.getSpec().getReplicas()).isEqualTo(3);
              assertThat(rs.getMetadata().getLabels()).containsEntry("pod-template-hash", hash);
              assertThat(rs.getSpec().getTemplate().getMetadata().getLabels())
                  .containsEntry("pod-template-hash", hash)
                  .containsEntry("app", "web");
              assertThat(rs.getSpec().getSelector().getMatchLabels())
                  .containsEntry("pod-template-hash", hash);
              assertThat(OwnerRefs.controllerOf(rs).getUid()).isEqualTo(d.getMetadata().getUid());
              assertThat(rs.getMetadata().getAnnotations())
                  .containsEntry("deployment.kubernetes.io/revision", "1")
                  .containsEntry("deployment.kubernetes.io/desired-replicas", "3")
                  .containsEntry("deployment.kubernetes.io/max-replicas", "4");
              assertThat(d.getMetadata().getAnnotations())
                  .containsEntry("deployment.kubernetes.io/revision", "1");
              assertThat(h.events.strings())
                  .containsExactly(
                      "Normal ScalingReplicaSet Scaled up replica set web-"
                          + hash
                          + " from 0 to 3");
              DeploymentCondition p = condition(h, "Progressing");
              assertThat(p.getReason()).isEqualTo("NewReplicaSetCreated");
              assertThat(p.getMessage()).isEqualTo("Created new replica set \"web-" + hash + "\"");
              assertThat(condition(h, "Available").getStatus()).isEqualTo("False");
              assertThat(h.status().getObservedGeneration()).isEqualTo(1L);
            }),
        new Case(
            "a template change creates the new ReplicaSet within maxSurge, then shrinks the old",
            h -> {
              Deployment d = h.deployment(rolling(4, "nginx:1", 1, 1).build());
              h.rs(d, "nginx:0", 1, 4, 4);
            },
            h -> {
              assertThat(h.serverRs("nginx:1").getSpec().getReplicas()).isEqualTo(1);
              assertThat(h.serverRs("nginx:1").getMetadata().getAnnotations())
                  .containsEntry("deployment.kubernetes.io/revision", "2");
              // 4 available, floor 3: one old pod may go in the same sync, as upstream.
              assertThat(h.serverRs("nginx:0").getSpec().getReplicas()).isEqualTo(3);
            }),
        new Case(
            "old ReplicaSets shrink only down to replicas - maxUnavailable available",
            h -> {
              Deployment d = h.deployment(rolling(4, "nginx:1", 1, 1).build());
              h.rs(d, "nginx:0", 1, 4, 4);
              h.rs(d, "nginx:1", 2, 1, 0);
            },
            h -> {
              assertThat(h.serverRs("nginx:0").getSpec().getReplicas()).isEqualTo(3);
              assertThat(h.serverRs("nginx:1").getSpec().getReplicas()).isEqualTo(1);
              assertThat(h.events.strings())
                  .singleElement()
                  .asString()
                  .matches("Normal ScalingReplicaSet Scaled down replica set web-\\w+ from 4 to 3");
              assertThat(condition(h, "Progressing").getReason()).isEqualTo("ReplicaSetUpdated");
            }),
        new Case(
            "unavailable old pods go first, beyond the availability floor",
            h -> {
              Deployment d = h.deployment(rolling(4, "nginx:1", 1, 1).build());
              h.rs(d, "nginx:0", 1, 4, 2);
              h.rs(d, "nginx:1", 2, 1, 1);
            },
            h -> assertThat(h.serverRs("nginx:0").getSpec().getReplicas()).isEqualTo(2)),
        new Case(
            "complete rollout: Progressing NewReplicaSetAvailable, Available",
            h -> {
              Deployment d = h.deployment(rolling(2, "nginx:1", 1, 0).build());
              h.rs(d, "nginx:1", 1, 2, 2);
            },
            h -> {
              assertThat(condition(h, "Progressing").getReason())
                  .isEqualTo("NewReplicaSetAvailable");
              assertThat(condition(h, "Available").getReason())
                  .isEqualTo("MinimumReplicasAvailable");
              var s = h.status();
              assertThat(s.getUpdatedReplicas()).isEqualTo(2);
              assertThat(s.getAvailableReplicas()).isEqualTo(2);
              assertThat(s.getUnavailableReplicas()).isZero();
            }),
        new Case(
            "Recreate scales the old ReplicaSet to zero and creates nothing yet",
            h -> {
              Deployment d =
                  h.deployment(
                      Harness.deployment(2, "nginx:1")
                          .editSpec()
                          .withNewStrategy()
                          .withType("Recreate")
                          .endStrategy()
                          .endSpec()
                          .build());
              h.rs(d, "nginx:0", 1, 2, 2);
            },
            h -> {
              assertThat(h.serverRs("nginx:0").getSpec().getReplicas()).isZero();
              assertThat(h.serverRs("nginx:1")).isNull();
            }),
        new Case(
            "Recreate creates the new ReplicaSet once no old pod is left",
            h -> {
              Deployment d =
                  h.deployment(
                      Harness.deployment(2, "nginx:1")
                          .editSpec()
                          .withNewStrategy()
                          .withType("Recreate")
                          .endStrategy()
                          .endSpec()
                          .build());
              h.rs(d, "nginx:0", 1, 0, 0);
            },
            h -> assertThat(h.serverRs("nginx:1").getSpec().getReplicas()).isEqualTo(2)),
        new Case(
            "scaling spreads over active ReplicaSets by size, leftover to the largest",
            h -> {
              // Mid-rollout at 10 (+3 surge): old 8, new 5; scaled to 20 (+5 surge).
              Deployment d = h.deployment(rolling(10, "nginx:1", 3, 2).build());
              h.rs(d, "nginx:0", 1, 8, 8);
              h.rs(d, "nginx:1", 2, 5, 0);
              Deployment scaled =
                  h.client
                      .apps()
                      .deployments()
                      .inNamespace(h.ns)
                      .withName("web")
                      .edit(x ->
                          new DeploymentBuilder(x)
                              .editSpec()
                              .withReplicas(20)
                              .editStrategy()
                              .editRollingUpdate()
                              .withMaxSurge(new IntOrString(5))
                              .endRollingUpdate()
                              .endStrategy()
                              .endSpec()
                              .build());
              h.ds.put(scaled);
            },
            h -> {
              // 25 allowed, 13 now: +12 split 8:5 of 13 -> old +7 (round(8*25/13)=15), new +5.
              assertThat(
                      h.serverRs("nginx:0").getSpec().getReplicas()
                          + h.serverRs("nginx:1").getSpec().getReplicas())
                  .isEqualTo(25);
              assertThat(h.serverRs("nginx:0").getSpec().getReplicas()).isEqualTo(15);
              assertThat(h.serverRs("nginx:0").getMetadata().getAnnotations())
                  .containsEntry("deployment.kubernetes.io/desired-replicas", "20")
                  .containsEntry("deployment.kubernetes.io/max-replicas", "25");
            }),
        new Case(
            "paused: Progressing Unknown DeploymentPaused, no rollout",
            h -> {
              Deployment d =
                  h.deployment(
                      rolling(2, "nginx:1", 1, 0).editSpec().withPaused(true).endSpec().build());
              h.rs(d, "nginx:0", 1, 2, 2);
            },
            h -> {
              assertThat(condition(h, "Progressing").getReason()).isEqualTo("DeploymentPaused");
              assertThat(condition(h, "Progressing").getStatus()).isEqualTo("Unknown");
              assertThat(h.serverRs("nginx:1")).isNull();
            }),
        new Case(
            "no progress past progressDeadlineSeconds: ProgressDeadlineExceeded",
            h -> {
              Deployment d =
                  h.deployment(
                      rolling(2, "nginx:1", 1, 0)
                          .withStatus(
                              new DeploymentStatusBuilder()
                                  .withObservedGeneration(1L)
                                  .withReplicas(2)
                                  .withUpdatedReplicas(2)
                                  .addToConditions(
                                      DeploymentUtil.newCondition(
                                          "Progressing", "True", "ReplicaSetUpdated", "x", T0))
                                  .build())
                          .build());
              h.rs(d, "nginx:1", 1, 2, 0);
              h.clock.setTime(T0.plusSeconds(601));
            },
            h -> {
              DeploymentCondition p = condition(h, "Progressing");
              assertThat(p.getReason()).isEqualTo("ProgressDeadlineExceeded");
              assertThat(p.getStatus()).isEqualTo("False");
              assertThat(p.getMessage())
                  .matches("ReplicaSet \"web-\\w+\" has timed out progressing.");
            }),
        new Case(
            "a stuck rollout is looked at again when its deadline passes",
            h -> {
              Deployment d = h.deployment(rolling(2, "nginx:1", 1, 0).build());
              h.rs(d, "nginx:1", 1, 2, 0);
              h.sync();
              h.ds.put(h.serverDeployment());
              h.clock.setTime(T0.plusSeconds(100));
            },
            h ->
                assertThat(h.queue.state().later())
                    .containsExactly(
                        new MockQueue.Delayed<>(h.ns + "/web", Duration.ofSeconds(501)))),
        new Case(
            "a hash collision bumps status.collisionCount",
            h -> {
              Deployment d = h.deployment(Harness.deployment(1, "nginx:1").build());
              String hash = PodTemplateHash.compute(d.getSpec().getTemplate(), null);
              h.client
                  .apps()
                  .replicaSets()
                  .inNamespace(h.ns)
                  .resource(
                      new io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder()
                          .withNewMetadata()
                          .withName("web-" + hash)
                          .endMetadata()
                          .withNewSpec()
                          .withReplicas(0)
                          .withNewSelector()
                          .withMatchLabels(java.util.Map.of("x", "y"))
                          .endSelector()
                          .withNewTemplate()
                          .withNewMetadata()
                          .withLabels(java.util.Map.of("x", "y"))
                          .endMetadata()
                          .withNewSpec()
                          .addNewContainer()
                          .withName("c")
                          .withImage("other")
                          .endContainer()
                          .endSpec()
                          .endTemplate()
                          .endSpec()
                          .build())
                  .create();
              try {
                h.sync();
              } catch (RuntimeException expected) {
                // AlreadyExists: retried with the next name
              }
              h.ds.put(h.serverDeployment());
            },
            h -> {
              assertThat(h.status().getCollisionCount()).isEqualTo(1);
              Deployment d = h.serverDeployment();
              String next = PodTemplateHash.compute(d.getSpec().getTemplate(), 1);
              assertThat(
                      h.client.apps().replicaSets().inNamespace(h.ns).withName("web-" + next).get())
                  .isNotNull();
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void sync(Case c, KubernetesClient client) {
    Harness h = new Harness(client);
    c.given().accept(h);
    h.sync();
    c.then().accept(h);
  }
}
