package io.jdra.controllers.deployment;

import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.jdra.controllers.controllerutil.OwnerRefs;
import io.jdra.controllers.controllerutil.PodTemplateHash;
import io.jdra.controllers.testing.ControllerHarness;
import io.jdra.runtime.cache.Lister;
import java.util.List;
import java.util.Map;

/**
 * One case's world: objects in the embedded API server, caches the test fills, a fake clock, a mock
 * queue and recorded events, in a namespace of its own.
 */
final class Harness extends ControllerHarness {
  static final Map<String, String> LABELS = Map.of("app", "web");
  final CacheImpl<Deployment> ds = new CacheImpl<>();
  final CacheImpl<ReplicaSet> rss = new CacheImpl<>();

  Harness(KubernetesClient client) {
    super(client, "dp-");
  }

  DeploymentController controller() {
    return new DeploymentController(
        new DeploymentController.Deps(
            client, Lister.of(ds), Lister.of(rss), Lister.of(pods), events, clock),
        queue,
        () -> true);
  }

  void sync() {
    controller().syncHandler(ctx, ns + "/web");
  }

  static DeploymentBuilder deployment(int replicas, String image) {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName("web")
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
        .withImage(image)
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec();
  }

  /** Creates the Deployment (and its status) in the server and caches it. */
  Deployment deployment(Deployment d) {
    Deployment created = client.apps().deployments().inNamespace(ns).resource(inNs(d)).create();
    if (d.getStatus() != null) {
      created =
          client
              .apps()
              .deployments()
              .inNamespace(ns)
              .resource(new DeploymentBuilder(created).withStatus(d.getStatus()).build())
              .updateStatus();
    }
    ds.put(created);
    return created;
  }

  /**
   * A ReplicaSet of {@code d} for {@code image} as the controller makes it, revision {@code
   * revision}, with {@code replicas} of which {@code available} are available.
   */
  ReplicaSet rs(Deployment d, String image, long revision, int replicas, int available) {
    var template =
        new PodTemplateSpecBuilder(deployment(replicas, image).build().getSpec().getTemplate())
            .build();
    // The server's defaults, so that the template equals the Deployment's as read back.
    Deployment probe =
        client.apps().deployments().inNamespace(ns).withName(d.getMetadata().getName()).get();
    if (probe.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().equals(image)) {
      template = new PodTemplateSpecBuilder(probe.getSpec().getTemplate()).build();
    }
    String hash = PodTemplateHash.compute(template, null);
    template.getMetadata().setLabels(Map.of("app", "web", PodTemplateHash.LABEL, hash));
    ReplicaSet rs =
        new ReplicaSetBuilder()
            .withNewMetadata()
            .withName("web-" + hash)
            .withLabels(Map.of("app", "web", PodTemplateHash.LABEL, hash))
            .withOwnerReferences(OwnerRefs.newControllerRef(d))
            .addToAnnotations(DeploymentUtil.REVISION_ANNOTATION, String.valueOf(revision))
            .addToAnnotations(
                DeploymentUtil.DESIRED_REPLICAS_ANNOTATION,
                String.valueOf(DeploymentUtil.replicas(d)))
            .addToAnnotations(
                DeploymentUtil.MAX_REPLICAS_ANNOTATION,
                String.valueOf(DeploymentUtil.replicas(d) + DeploymentUtil.maxSurge(d)))
            .endMetadata()
            .withNewSpec()
            .withReplicas(replicas)
            .withNewSelector()
            .withMatchLabels(Map.of("app", "web", PodTemplateHash.LABEL, hash))
            .endSelector()
            .withTemplate(template)
            .endSpec()
            .build();
    ReplicaSet created = client.apps().replicaSets().inNamespace(ns).resource(inNs(rs)).create();
    created =
        client
            .apps()
            .replicaSets()
            .inNamespace(ns)
            .resource(
                new ReplicaSetBuilder(created)
                    .withStatus(
                        new ReplicaSetStatusBuilder()
                            .withReplicas(replicas)
                            .withReadyReplicas(available)
                            .withAvailableReplicas(available)
                            .withObservedGeneration(1L)
                            .build())
                    .build())
            .updateStatus();
    rss.put(created);
    return created;
  }

  Deployment serverDeployment() {
    return client.apps().deployments().inNamespace(ns).withName("web").get();
  }

  DeploymentStatus status() {
    return serverDeployment().getStatus();
  }

  List<ReplicaSet> serverRss() {
    return client.apps().replicaSets().inNamespace(ns).list().getItems();
  }

  ReplicaSet serverRs(String image) {
    return serverRss().stream()
        .filter(rs ->
            rs.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().equals(image))
        .findFirst()
        .orElse(null);
  }
}
