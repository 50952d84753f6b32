package io.jdra.controllers.replicaset;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.jdra.controllers.controllerutil.ControllerExpectations;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.PodControl;
import io.jdra.controllers.controllerutil.RealPodControl;
import io.jdra.controllers.testing.ControllerHarness;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.logging.Logger;
import java.util.Map;

/**
 * One case's world: objects written to the embedded API server, informer caches the test fills
 * itself (so they may lag behind the server), a fake clock, a mock queue and recorded events. Each
 * harness has its own namespace.
 */
final class Harness extends ControllerHarness {
  static final Map<String, String> LABELS = Map.of("app", "web");

  final CacheImpl<ReplicaSet> rss = new CacheImpl<>();
  final ControllerExpectations expectations = new ControllerExpectations(clock);
  int burstReplicas = ReplicaSetController.BURST_REPLICAS;
  PodControl podControl;
  private ReplicaSetController controller;

  Harness(KubernetesClient client) {
    super(client, "rs-");
    this.podControl = new RealPodControl(client, events);
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

  /** Puts what the server has into the caches, as an informer that caught up would. */
  void catchUp() {
    catchUpPods();
    for (ReplicaSet rs : client.apps().replicaSets().inNamespace(ns).list().getItems()) {
      rss.put(rs);
    }
  }
}
