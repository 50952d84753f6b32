package io.jdra.controllers.garbagecollector;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.controllers.controllerutil.ApiResources;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.MockQueue;
import io.jdra.testing.apiserver.WithApiServer;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A cluster-scoped object naming a namespaced owner (upstream's {@code
 * namespacedOwnerOfClusterScopedObjectErr}, #98040): the owner cannot be looked up without a
 * namespace, so neither the object nor the virtual owner is decided on and both are dropped from
 * the queue; the object is not deleted. Workers run against the embedded API server.
 */
@WithApiServer
class ClusterScopedDependentTest {
  static final Ctx CTX = Ctx.forTest(new FakeClock(Instant.parse("2026-01-01T00:00:00Z")));

  @Test
  void isLeftAloneAndNotRetried(KubernetesClient client) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("gc-cs").endMetadata().build())
        .create();
    ConfigMap owner =
        client
            .configMaps()
            .inNamespace("gc-cs")
            .resource(new ConfigMapBuilder().withNewMetadata().withName("o").endMetadata().build())
            .create();
    DeviceClass dc =
        client
            .resources(DeviceClass.class)
            .resource(
                new DeviceClassBuilder()
                    .withNewMetadata()
                    .withName("gc-cs-class")
                    .addNewOwnerReference()
                    .withApiVersion("v1")
                    .withKind("ConfigMap")
                    .withName("o")
                    .withUid(owner.getMetadata().getUid())
                    .endOwnerReference()
                    .endMetadata()
                    .withNewSpec()
                    .endSpec()
                    .build())
            .create();
    MockQueue<String> toDelete = new MockQueue<>();
    AbsentOwnerCache absent = new AbsentOwnerCache();
    GraphBuilder graph =
        new GraphBuilder(toDelete, new MockQueue<>(), absent, EventRecorder.fake());
    AttemptToDelete deleter =
        new AttemptToDelete(
            graph, new MetadataClient(client, ApiResources.discover(client)), absent);
    GenericKubernetesResource seen =
        client
            .genericKubernetesResources("resource.k8s.io/v1", "DeviceClass")
            .withName("gc-cs-class")
            .get();
    graph.processGraphChanges(
        CTX.logger(), new GraphEvent(GraphEvent.Type.ADD, null, ObjectMeta.of(seen)));

    // Neither throws (a throw would retry with backoff for ever).
    deleter.attemptToDeleteWorker(CTX, owner.getMetadata().getUid());
    deleter.attemptToDeleteWorker(CTX, dc.getMetadata().getUid());

    assertThat(client.resources(DeviceClass.class).withName("gc-cs-class").get()).isNotNull();
    assertThat(graph.view(owner.getMetadata().getUid()).virtual()).isTrue();
  }
}
