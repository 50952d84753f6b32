package io.jdra.controllers.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.testing.apiserver.WithApiServer;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The garbage collector in the manager against the embedded API server, which alone only records
 * what a deletion asks for: dependents of a deleted owner go (background), an owner deleted in the
 * foreground stays until its blocking dependents are gone, orphaning keeps dependents and removes
 * their references, a dependent whose owner never existed goes, one with a live owner left loses
 * only the dangling reference, a dependent naming an owner in another namespace is reported and
 * collected, and Jobs orphan their pods by default.
 */
@WithApiServer
class GarbageCollectorIntegrationTest {
  static final Duration WAIT = Duration.ofSeconds(30);
  static final String NS = "gc-it";
  static ControllerManager.Handle manager;

  @BeforeAll
  static void start(KubernetesClient client) throws Exception {
    WorkloadTestSupport.namespace(client, NS);
    manager = WorkloadTestSupport.startWithGc(client);
    manager.synced().get();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    manager.stop();
  }

  static ConfigMap configMap(KubernetesClient client, String name, OwnerReference... owners) {
    return client
        .configMaps()
        .inNamespace(NS)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withOwnerReferences(owners)
                .endMetadata()
                .build())
        .create();
  }

  static OwnerReference ref(HasMetadata owner, boolean block) {
    return new OwnerReferenceBuilder()
        .withApiVersion(owner.getApiVersion())
        .withKind(owner.getKind())
        .withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid())
        .withBlockOwnerDeletion(block)
        .build();
  }

  /** A reference to an owner that never existed (a fresh UID). */
  static OwnerReference neverExisted() {
    return new OwnerReferenceBuilder()
        .withApiVersion("v1")
        .withKind("ConfigMap")
        .withName("never-existed")
        .withUid(UUID.randomUUID().toString())
        .build();
  }

  static ConfigMap get(KubernetesClient client, String name) {
    return client.configMaps().inNamespace(NS).withName(name).get();
  }

  @Test
  void backgroundDeletionRemovesDependentsTransitively(KubernetesClient client) {
    ConfigMap owner = configMap(client, "bg-owner");
    ConfigMap dep = configMap(client, "bg-dep", ref(owner, false));
    configMap(client, "bg-grandchild", ref(dep, false));
    client.configMaps().inNamespace(NS).withName("bg-owner").delete();
    await()
        .atMost(WAIT)
        .until(() -> get(client, "bg-dep") == null && get(client, "bg-grandchild") == null);
  }

  @Test
  void foregroundDeletionWaitsForBlockingDependents(KubernetesClient client) {
    ConfigMap owner = configMap(client, "fg-owner");
    configMap(client, "fg-dep", ref(owner, true));
    client
        .configMaps()
        .inNamespace(NS)
        .withName("fg-owner")
        .withPropagationPolicy(DeletionPropagation.FOREGROUND)
        .delete();
    await()
        .atMost(WAIT)
        .until(() -> get(client, "fg-dep") == null && get(client, "fg-owner") == null);
  }

  @Test
  void foregroundOwnerStaysWhileABlockingDependentIsHeld(KubernetesClient client) {
    ConfigMap owner = configMap(client, "hold-owner");
    ConfigMap dep =
        client
            .configMaps()
            .inNamespace(NS)
            .resource(
                new ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("hold-dep")
                    .withFinalizers("example.com/hold")
                    .withOwnerReferences(ref(owner, true))
                    .endMetadata()
                    .build())
            .create();
    client
        .configMaps()
        .inNamespace(NS)
        .withName("hold-owner")
        .withPropagationPolicy(DeletionPropagation.FOREGROUND)
        .delete();
    await()
        .atMost(WAIT)
        .until(() -> get(client, "hold-dep").getMetadata().getDeletionTimestamp() != null);
    assertThat(get(client, "hold-owner").getMetadata().getFinalizers())
        .containsExactly("foregroundDeletion");
    client
        .configMaps()
        .inNamespace(NS)
        .withName(dep.getMetadata().getName())
        .edit(c ->
            new ConfigMapBuilder(c).editMetadata().withFinalizers(List.of()).endMetadata().build());
    await()
        .atMost(WAIT)
        .until(() -> get(client, "hold-dep") == null && get(client, "hold-owner") == null);
  }

  @Test
  void orphanKeepsDependentsWithoutTheReference(KubernetesClient client) {
    ConfigMap owner = configMap(client, "or-owner");
    configMap(client, "or-dep", ref(owner, true));
    client
        .configMaps()
        .inNamespace(NS)
        .withName("or-owner")
        .withPropagationPolicy(DeletionPropagation.ORPHAN)
        .delete();
    await().atMost(WAIT).until(() -> get(client, "or-owner") == null);
    await()
        .atMost(WAIT)
        .until(() -> get(client, "or-dep").getMetadata().getOwnerReferences().isEmpty());
  }

  @Test
  void dependentOfAnOwnerThatNeverExistedIsDeleted(KubernetesClient client) {
    configMap(client, "ghost-dep", neverExisted());
    await().atMost(WAIT).until(() -> get(client, "ghost-dep") == null);
  }

  @Test
  void liveOwnerKeepsTheDependentAndTheDanglingReferenceGoes(KubernetesClient client) {
    ConfigMap live = configMap(client, "live-owner");
    ConfigMap gone = configMap(client, "gone-owner");
    configMap(client, "two-owners", ref(live, false), ref(gone, false));
    client.configMaps().inNamespace(NS).withName("gone-owner").delete();
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(get(client, "two-owners").getMetadata().getOwnerReferences())
                .extracting(OwnerReference::getName)
                .containsExactly("live-owner"));
  }

  /**
   * A reference to an owner in another namespace names nothing (a namespaced owner can only be in
   * its dependent's namespace): the dependent gets a Warning {@code OwnerRefInvalidNamespace} and,
   * with no other owner, is collected; afterwards a dependent of the same owner in the owner's
   * namespace is kept (the owner is absent only where it was looked for).
   */
  @Test
  void anOwnerInAnotherNamespaceIsReportedAndCollectedThere(KubernetesClient client) {
    String other = "gc-it-xns";
    WorkloadTestSupport.namespace(client, other);
    // The owner is in the graph once its dangling reference is gone: then the dependent below
    // meets an observed owner (had it come first, the owner would simply be absent there).
    ConfigMap anchor = configMap(client, "xns-anchor");
    ConfigMap owner = configMap(client, "xns-owner", ref(anchor, false), neverExisted());
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(get(client, "xns-owner").getMetadata().getOwnerReferences())
                .extracting(OwnerReference::getUid)
                .containsExactly(anchor.getMetadata().getUid()));
    client
        .configMaps()
        .inNamespace(other)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("xns-dep")
                .withOwnerReferences(ref(owner, false))
                .endMetadata()
                .build())
        .create();
    await()
        .atMost(WAIT)
        .untilAsserted(() -> {
          assertThat(client.configMaps().inNamespace(other).withName("xns-dep").get())
              .as("dependent in the other namespace")
              .isNull();
          assertThat(client.resources(Event.class).inNamespace(other).list().getItems())
              .anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("OwnerRefInvalidNamespace");
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getReportingController()).isEqualTo("garbage-collector-controller");
                assertThat(e.getRegarding().getName()).isEqualTo("xns-dep");
                assertThat(e.getNote())
                    .isEqualTo(
                        "ownerRef [v1/ConfigMap, namespace: "
                            + other
                            + ", name: xns-owner, uid: "
                            + owner.getMetadata().getUid()
                            + "] does not exist in namespace \""
                            + other
                            + "\"");
              });
        });
    configMap(client, "xns-good", ref(owner, false), neverExisted());
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(get(client, "xns-good").getMetadata().getOwnerReferences())
                .extracting(OwnerReference::getUid)
                .containsExactly(owner.getMetadata().getUid()));
  }

  @Test
  void jobsOrphanTheirDependentsByDefault(KubernetesClient client) {
    Job job =
        client
            .batch()
            .v1()
            .jobs()
            .inNamespace(NS)
            .resource(
                new JobBuilder()
                    .withNewMetadata()
                    .withName("j1")
                    .endMetadata()
                    .withNewSpec()
                    .withTemplate(WorkloadTestSupport.template(java.util.Map.of("a", "b"), "x"))
                    .editTemplate()
                    .editSpec()
                    .withRestartPolicy("Never")
                    .endSpec()
                    .endTemplate()
                    .endSpec()
                    .build())
            .create();
    // Jobs and ConfigMaps come through two watches: had the collector processed the Job's orphan
    // finalizer before it saw the ConfigMap, it would orphan nothing and later collect the
    // ConfigMap as dangling (upstream's collector has the same window). A second owner that never
    // existed makes the collector's visit observable: it drops that reference only once the
    // ConfigMap is in its graph, as a dependent of the Job.
    configMap(client, "job-dep", ref(job, false), neverExisted());
    await()
        .atMost(WAIT)
        .untilAsserted(() ->
            assertThat(get(client, "job-dep").getMetadata().getOwnerReferences())
                .extracting(OwnerReference::getUid)
                .containsExactly(job.getMetadata().getUid()));
    // No propagation policy (fabric8 would send Background): the batch/v1 default, orphan.
    client.raw(
        client.getMasterUrl().toString().replaceAll("/+$", "")
            + "/apis/batch/v1/namespaces/"
            + NS
            + "/jobs/j1",
        "DELETE",
        null);
    await()
        .atMost(WAIT)
        .until(() -> client.batch().v1().jobs().inNamespace(NS).withName("j1").get() == null);
    await()
        .atMost(WAIT)
        .untilAsserted(() -> {
          ConfigMap dep = get(client, "job-dep");
          assertThat(dep).as("orphaned dependent").isNotNull();
          assertThat(dep.getMetadata().getOwnerReferences()).isEmpty();
        });
  }
}
