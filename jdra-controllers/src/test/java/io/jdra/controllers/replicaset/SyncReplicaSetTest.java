package io.jdra.controllers.replicaset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.PodControl;
import io.jdra.runtime.workqueue.MockQueue;
import io.jdra.testing.apiserver.WithApiServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * syncReplicaSet as upstream's replica_set_test.go: creations and deletions to reach {@code
 * spec.replicas}, expectations against a lagging informer, the deletion order, adoption and
 * release, the burst limit, slow start after a failure, status and events. Writes go to the
 * embedded API server; reads come from test-filled caches.
 */
@WithApiServer
class SyncReplicaSetTest {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** A case: {@code given} builds the world and returns the RS to sync; {@code then} checks. */
  record Case(
      String name,
      java.util.function.Function<Harness, ReplicaSet> given,
      String error,
      Consumer<Harness> then) {
    @Override
    public String toString() {
      return name;
    }
  }

  static PodStatus running(String node, boolean ready, Instant readySince) {
    return new PodStatusBuilder()
        .withPhase("Running")
        .addNewCondition()
        .withType("Ready")
        .withStatus(ready ? "True" : "False")
        .withLastTransitionTime(readySince.toString())
        .endCondition()
        .build();
  }

  static List<Pod> owned(Harness h, String rsName) {
    return h.serverPods().stream()
        .filter(p -> {
          OwnerReference r = OwnerRefs.controllerOf(p);
          return r != null && r.getName().equals(rsName);
        })
        .toList();
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "creates the missing replicas, owned, with events",
            h -> h.rs(Harness.replicaSet("web", 3)),
            null,
            h -> {
              List<Pod> pods = owned(h, "web");
              assertThat(pods).hasSize(3);
              assertThat(pods)
                  .allSatisfy(p -> {
                    assertThat(p.getMetadata().getName()).startsWith("web-");
                    assertThat(p.getMetadata().getLabels()).containsEntry("app", "web");
                    OwnerReference r = OwnerRefs.controllerOf(p);
                    assertThat(r.getKind()).isEqualTo("ReplicaSet");
                    assertThat(r.getApiVersion()).isEqualTo("apps/v1");
                    assertThat(r.getBlockOwnerDeletion()).isTrue();
                  });
              assertThat(h.events.strings())
                  .hasSize(3)
                  .allMatch(e -> e.startsWith("Normal SuccessfulCreate Created pod: web-"));
              assertThat(h.expectations.get(h.ns + "/web")).containsExactly(3, 0);
              assertThat(h.serverRs("web").getStatus().getReplicas()).isZero();
              assertThat(h.serverRs("web").getStatus().getObservedGeneration()).isEqualTo(1L);
            }),
        new Case(
            "a second sync before the informer shows the pods creates nothing",
            h -> {
              ReplicaSet rs = h.rs(Harness.replicaSet("web", 2));
              h.sync(rs);
              return rs;
            },
            null,
            h -> assertThat(owned(h, "web")).hasSize(2)),
        new Case(
            "once observed, the next sync counts the pods and writes the status",
            h -> {
              ReplicaSet rs = h.rs(Harness.replicaSet("web", 2));
              h.sync(rs);
              h.catchUp();
              for (Pod p : h.pods.list()) {
                h.controller().addPod(h.log(), p);
              }
              return rs;
            },
            null,
            h -> {
              assertThat(owned(h, "web")).hasSize(2);
              assertThat(h.expectations.get(h.ns + "/web")).containsExactly(0, 0);
              var status = h.serverRs("web").getStatus();
              assertThat(status.getReplicas()).isEqualTo(2);
              assertThat(status.getFullyLabeledReplicas()).isEqualTo(2);
              assertThat(status.getReadyReplicas()).isZero();
            }),
        new Case(
            "deletes unscheduled, then pending, then not ready pods first",
            h -> {
              ReplicaSet rs = h.rs(Harness.replicaSet("web", 1));
              Pod ready =
                  Harness.pod("ready", rs)
                      .editSpec()
                      .withNodeName("n1")
                      .endSpec()
                      .withStatus(running("n1", true, T0))
                      .build();
              h.pod(ready);
              h.pod(Harness.pod("unscheduled", rs).build());
              h.pod(
                  Harness.pod("notready", rs)
                      .editSpec()
                      .withNodeName("n1")
                      .endSpec()
                      .withStatus(running("n1", false, T0))
                      .build());
              return rs;
            },
            null,
            h -> {
              // Pods bound to a node are deleted gracefully: they stay, terminating.
              assertThat(h.serverPods())
                  .filteredOn(p -> p.getMetadata().getDeletionTimestamp() == null)
                  .extracting(p -> p.getMetadata().getName())
                  .containsExactly("ready");
              assertThat(h.events.strings())
                  .containsExactlyInAnyOrder(
                      "Normal SuccessfulDelete Deleted pod: unscheduled",
                      "Normal SuccessfulDelete Deleted pod: notready");
              assertThat(h.expectations.get(h.ns + "/web")).containsExactly(0, 2);
            }),
        new Case(
            "lower pod-deletion-cost goes first among equal pods",
            h -> {
              ReplicaSet rs = h.rs(Harness.replicaSet("web", 1));
              h.pod(
                  Harness.pod("cheap", rs)
                      .editMetadata()
                      .addToAnnotations("controller.kubernetes.io/pod-deletion-cost", "-5")
                      .endMetadata()
                      .build());
              h.pod(
                  Harness.pod("dear", rs)
                      .editMetadata()
                      .addToAnnotations("controller.kubernetes.io/pod-deletion-cost", "100")
                      .endMetadata()
                      .build());
              return rs;
            },
            null,
            h ->
                assertThat(h.serverPods())
                    .extracting(p -> p.getMetadata().getName())
                    .containsExactly("dear")),
        new Case(
            "adopts an orphan that matches the selector",
            h -> {
              ReplicaSet rs = h.rs(Harness.replicaSet("web", 1));
              h.pod(Harness.pod("orphan", null).build());
              return rs;
            },
            null,
            h -> {
              List<Pod> pods = h.serverPods();
              assertThat(pods).hasSize(1);
              assertThat(OwnerRefs.controllerOf(pods.get(0)).getName()).isEqualTo("web");
              assertThat(h.events.strings()).isEmpty();
            }),
        new Case(
            "releases an owned pod that no longer matches, and replaces it",
            h -> {
              ReplicaSet rs = h.rs(Harness.replicaSet("web", 1));
              h.pod(
                  Harness.pod("relabelled", rs)
                      .editMetadata()
                      .withLabels(Map.of("app", "other"))
                      .endMetadata()
                      .build());
              return rs;
            },
            null,
            h -> {
              Pod released = h.client.pods().inNamespace(h.ns).withName("relabelled").get();
              assertThat(released.getMetadata().getOwnerReferences()).isNullOrEmpty();
              assertThat(owned(h, "web")).hasSize(1);
            }),
        new Case(
            "pods of another controller are left alone",
            h -> {
              ReplicaSet rs = h.rs(Harness.replicaSet("web", 1));
              ReplicaSet other = h.rs(Harness.replicaSet("other", 0));
              h.pod(Harness.pod("theirs", other).build());
              return rs;
            },
            null,
            h -> {
              assertThat(owned(h, "other")).hasSize(1);
              assertThat(owned(h, "web")).hasSize(1);
            }),
        new Case(
            "creates at most burstReplicas per sync",
            h -> {
              h.burstReplicas = 2;
              return h.rs(Harness.replicaSet("web", 5));
            },
            null,
            h -> {
              assertThat(owned(h, "web")).hasSize(2);
              assertThat(h.expectations.get(h.ns + "/web")).containsExactly(2, 0);
            }),
        new Case(
            "a failed creation stops the slow start, records FailedCreate and ReplicaFailure",
            h -> {
              AtomicInteger attempts = new AtomicInteger();
              h.podControl =
                  new PodControl() {
                    @Override
                    public Pod createPod(
                        String namespace,
                        PodTemplateSpec template,
                        HasMetadata controller,
                        OwnerReference ref,
                        String generateName,
                        List<String> finalizers) {
                      attempts.incrementAndGet();
                      h.events.eventf(
                          controller,
                          null,
                          "Warning",
                          FAILED_CREATE_POD_REASON,
                          "Create",
                          "Error creating: %s",
                          "pods is forbidden: exceeded quota");
                      throw new IllegalStateException("pods is forbidden: exceeded quota");
                    }

                    @Override
                    public void deletePod(String namespace, String name, HasMetadata controller) {}
                  };
              h.clock.setTime(T0.plusSeconds(attempts.get()));
              return h.rs(Harness.replicaSet("web", 10));
            },
            "pods is forbidden: exceeded quota",
            h -> {
              assertThat(h.events.strings())
                  .containsExactly(
                      "Warning FailedCreate Error creating: pods is forbidden: exceeded quota");
              assertThat(h.expectations.get(h.ns + "/web")).containsExactly(0, 0);
              var cond = h.serverRs("web").getStatus().getConditions();
              assertThat(cond)
                  .singleElement()
                  .satisfies(c -> {
                    assertThat(c.getType()).isEqualTo("ReplicaFailure");
                    assertThat(c.getReason()).isEqualTo("FailedCreate");
                    assertThat(c.getMessage()).isEqualTo("pods is forbidden: exceeded quota");
                  });
              assertThat(h.queue.state().later()).isEmpty();
            }),
        new Case(
            "status counts ready and available pods; available after minReadySeconds",
            h -> {
              h.clock.setTime(T0.plusSeconds(100));
              ReplicaSet rs =
                  h.rs(
                      new ReplicaSetBuilder(Harness.replicaSet("web", 2))
                          .editSpec()
                          .withMinReadySeconds(30)
                          .endSpec()
                          .build());
              h.pod(
                  Harness.pod("old", rs)
                      .editSpec()
                      .withNodeName("n")
                      .endSpec()
                      .withStatus(running("n", true, T0))
                      .build());
              h.pod(
                  Harness.pod("fresh", rs)
                      .editSpec()
                      .withNodeName("n")
                      .endSpec()
                      .withStatus(running("n", true, T0.plusSeconds(90)))
                      .build());
              return rs;
            },
            null,
            h -> {
              var s = h.serverRs("web").getStatus();
              assertThat(s.getReplicas()).isEqualTo(2);
              assertThat(s.getReadyReplicas()).isEqualTo(2);
              assertThat(s.getAvailableReplicas()).isEqualTo(1);
              assertThat(h.queue.state().later())
                  .containsExactly(new MockQueue.Delayed<>(h.ns + "/web", Duration.ofSeconds(30)));
            }),
        new Case(
            "finished and terminating pods do not count",
            h -> {
              ReplicaSet rs = h.rs(Harness.replicaSet("web", 1));
              h.pod(
                  Harness.pod("done", rs)
                      .withStatus(new PodStatusBuilder().withPhase("Succeeded").build())
                      .build());
              return rs;
            },
            null,
            h -> assertThat(owned(h, "web")).hasSize(2)),
        new Case(
            "a ReplicaSet being deleted creates nothing",
            h -> {
              ReplicaSet rs = Harness.replicaSet("web", 3);
              rs.getMetadata().setFinalizers(List.of("example.com/hold"));
              ReplicaSet created = h.rs(rs);
              h.client.apps().replicaSets().inNamespace(h.ns).withName("web").delete();
              h.catchUp();
              return h.rss.getByKey(h.ns + "/web");
            },
            null,
            h -> {
              assertThat(h.serverPods()).isEmpty();
              h.client
                  .apps()
                  .replicaSets()
                  .inNamespace(h.ns)
                  .withName("web")
                  .edit(r ->
                      new ReplicaSetBuilder(r)
                          .editMetadata()
                          .withFinalizers()
                          .endMetadata()
                          .build());
            }),
        new Case(
            "a ReplicaSet gone from the cache forgets its expectations",
            h -> {
              ReplicaSet rs = h.rs(Harness.replicaSet("web", 1));
              h.expectations.expectCreations(h.ns + "/web", 1);
              h.rss.remove(rs);
              return rs;
            },
            null,
            h -> {
              assertThat(h.expectations.get(h.ns + "/web")).isNull();
              assertThat(h.serverPods()).isEmpty();
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void sync(Case c, KubernetesClient client) {
    Harness h = new Harness(client);
    ReplicaSet rs = c.given().apply(h);
    if (c.error() == null) {
      h.sync(rs);
    } else {
      assertThatThrownBy(() -> h.sync(rs)).hasMessageContaining(c.error());
    }
    c.then().accept(h);
  }
}
