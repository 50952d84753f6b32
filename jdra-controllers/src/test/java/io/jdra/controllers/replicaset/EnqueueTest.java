package io.jdra.controllers.replicaset;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.workqueue.MockQueue;
import io.jdra.testing.apiserver.WithApiServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The event handlers only resolve owners, observe expectations and enqueue. */
@WithApiServer
class EnqueueTest {
  @Test
  void ownedPodAddedIsObservedAndEnqueuesItsOwner(KubernetesClient client) {
    Harness h = new Harness(client);
    ReplicaSet rs = h.rs(Harness.replicaSet("web", 1));
    h.expectations.expectCreations(h.ns + "/web", 1);
    h.controller().addPod(h.log(), pod(h, "p", rs, "1"));
    assertThat(h.expectations.satisfiedExpectations(h.ns + "/web")).isTrue();
    assertThat(h.queue.state().ready()).containsExactly(h.ns + "/web");
  }

  @Test
  void orphanEnqueuesEveryMatchingReplicaSetButNotEmptySelectors(KubernetesClient client) {
    Harness h = new Harness(client);
    h.rs(Harness.replicaSet("a", 1));
    h.rs(Harness.replicaSet("b", 1));
    h.rs(
        new ReplicaSetBuilder(Harness.replicaSet("other", 1))
            .editSpec()
            .editSelector()
            .withMatchLabels(Map.of("app", "x"))
            .endSelector()
            .editTemplate()
            .editMetadata()
            .withLabels(Map.of("app", "x"))
            .endMetadata()
            .endTemplate()
            .endSpec()
            .build());
    h.controller().addPod(h.log(), pod(h, "p", null, "1"));
    assertThat(h.queue.state().ready()).containsExactlyInAnyOrder(h.ns + "/a", h.ns + "/b");
  }

  @Test
  void deletionIsObservedOncePerPod(KubernetesClient client) {
    Harness h = new Harness(client);
    ReplicaSet rs = h.rs(Harness.replicaSet("web", 1));
    h.expectations.expectDeletions(h.ns + "/web", Set.of(h.ns + "/p", h.ns + "/q"));
    Pod p = pod(h, "p", rs, "1");
    h.controller().deletePod(h.log(), p);
    h.controller().deletePod(h.log(), p);
    assertThat(h.expectations.get(h.ns + "/web")).containsExactly(0, 1);
    assertThat(h.expectations.satisfiedExpectations(h.ns + "/web")).isFalse();
    h.clock.step(Duration.ofMinutes(5).plusSeconds(1));
    assertThat(h.expectations.satisfiedExpectations(h.ns + "/web")).isTrue();
  }

  @Test
  void podTurningReadyLooksAgainAfterMinReadySeconds(KubernetesClient client) {
    Harness h = new Harness(client);
    ReplicaSet rs =
        h.rs(
            new ReplicaSetBuilder(Harness.replicaSet("web", 1))
                .editSpec()
                .withMinReadySeconds(10)
                .endSpec()
                .build());
    Pod old = pod(h, "p", rs, "1");
    Pod ready =
        new PodBuilder(old)
            .editMetadata()
            .withResourceVersion("2")
            .endMetadata()
            .withNewStatus()
            .addNewCondition()
            .withType("Ready")
            .withStatus("True")
            .endCondition()
            .endStatus()
            .build();
    h.controller().updatePod(h.log(), old, ready);
    assertThat(h.queue.state().ready()).containsExactly(h.ns + "/web");
    assertThat(h.queue.state().later())
        .containsExactly(new MockQueue.Delayed<>(h.ns + "/web", Duration.ofSeconds(11)));
  }

  @Test
  void terminatingPodCountsAsDeleted(KubernetesClient client) {
    Harness h = new Harness(client);
    ReplicaSet rs = h.rs(Harness.replicaSet("web", 1));
    h.expectations.expectDeletions(h.ns + "/web", Set.of(h.ns + "/p"));
    Pod old = pod(h, "p", rs, "1");
    Pod terminating =
        new PodBuilder(old)
            .editMetadata()
            .withResourceVersion("2")
            .withDeletionTimestamp("2026-01-01T00:00:00Z")
            .endMetadata()
            .build();
    h.controller().updatePod(h.log(), old, terminating);
    assertThat(h.expectations.satisfiedExpectations(h.ns + "/web")).isTrue();
  }

  @Test
  void deletedReplicaSetForgetsExpectations(KubernetesClient client) {
    Harness h = new Harness(client);
    ReplicaSet rs = h.rs(Harness.replicaSet("web", 1));
    h.expectations.expectCreations(h.ns + "/web", 3);
    h.controller().deleteRS(h.log(), rs);
    assertThat(h.expectations.get(h.ns + "/web")).isNull();
    assertThat(h.queue.state().ready()).isEqualTo(List.of(h.ns + "/web"));
  }

  /** A pod as an informer delivers it (not written to the server). */
  static Pod pod(Harness h, String name, ReplicaSet owner, String rv) {
    return Harness.pod(name, owner)
        .editMetadata()
        .withNamespace(h.ns)
        .withResourceVersion(rv)
        .endMetadata()
        .build();
  }
}
