package io.jdra.controllers.replicaset;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.jdra.controllers.controllerutil.ControllerExpectations;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.PodControl;
import io.jdra.controllers.controllerutil.RealPodControl;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.runtime.logging.Logger;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.record.FakeEventRecorder;
import io.jdra.runtime.workqueue.MockQueue;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One case's world: objects written to the embedded API server, informer caches the test fills
 * itself (so they may lag behind the server), a fake clock, a mock queue and recorded events. Each
 * harness has its own namespace.
 */
final class Harness {
  static final Map<String, String> LABELS = Map.of("app", "web");

  final KubernetesClient client;
  final String ns = "rs-" + UUID.randomUUID().toString().substring(0, 8);
  final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  final Ctx ctx = Ctx.forTest(clock);
  final MockQueue<String> queue = new MockQueue<>();
  final FakeEventRecorder events = EventRecorder.fake();
  final CacheImpl<ReplicaSet> rss = new CacheImpl<>();
  final CacheImpl<Pod> pods = new CacheImpl<>();
  final ControllerExpectations expectations = new ControllerExpectations(clock);
  int burstReplicas = ReplicaSetController.BURST_REPLICAS;
  PodControl podControl;
  private ReplicaSetController controller;

  Harness(KubernetesClient client) {
    this.client = client;
    this.podControl = new RealPodControl(client, events);
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
  }

  ReplicaSetController controller() {
    if (controller == null) {
      ReplicaSetController.Deps deps =
          new ReplicaSetController.Deps(
              client,
              Lister.of(rss),
              Lister.of(pods),
              expectations,
              podControl,
              clock,
              burstReplicas);
      controller = new ReplicaSetController(deps, queue, () -> true);
    }
    return controller;
  }

  Logger log() {
    return ctx.logger();
  }

  void sync(ReplicaSet rs) {
    controller().syncHandler(ctx, ReplicaSetController.key(rs));
  }

  static ReplicaSet replicaSet(String name, int replicas) {
    return new ReplicaSetBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .withNewSelector()
        .withMatchLabels(LABELS)
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(LABELS)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("c")
        .withImage("registry.k8s.io/pause:3.10")
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  /** Creates the ReplicaSet in the server and caches it. */
  ReplicaSet rs(ReplicaSet rs) {
    ReplicaSet created = client.apps().replicaSets().inNamespace(ns).resource(inNs(rs)).create();
    rss.put(created);
    return created;
  }

  ReplicaSet serverRs(String name) {
    return client.apps().replicaSets().inNamespace(ns).withName(name).get();
  }

  /** A pod with the RS's labels, optionally owned by {@code owner}. */
  static PodBuilder pod(String name, ReplicaSet owner) {
    PodBuilder b =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withLabels(LABELS)
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("c")
            .withImage("registry.k8s.io/pause:3.10")
            .endContainer()
            .endSpec();
    if (owner != null) {
      OwnerReference ref = OwnerRefs.newControllerRef(owner);
      b.editMetadata().withOwnerReferences(ref).endMetadata();
    }
    return b;
  }

  /** Creates the pod (and its status) in the server and caches the result. */
  Pod pod(Pod p) {
    Pod created = client.pods().inNamespace(ns).resource(inNs(p)).create();
    PodStatus status = p.getStatus();
    if (status != null) {
      created =
          client
              .pods()
              .inNamespace(ns)
              .resource(new PodBuilder(created).withStatus(status).build())
              .updateStatus();
    }
    pods.put(created);
    return created;
  }

  List<Pod> serverPods() {
    return client.pods().inNamespace(ns).list().getItems();
  }

  /** Puts what the server has into the caches, as an informer that caught up would. */
  void catchUp() {
    for (Pod p : List.copyOf(pods.list())) {
      if (p.getMetadata().getNamespace().equals(ns)) {
        pods.remove(p);
      }
    }
    serverPods().forEach(pods::put);
    for (ReplicaSet rs : client.apps().replicaSets().inNamespace(ns).list().getItems()) {
      rss.put(rs);
    }
  }

  private <T extends io.fabric8.kubernetes.api.model.HasMetadata> T inNs(T obj) {
    obj.getMetadata().setNamespace(ns);
    return obj;
  }
}
