package io.jdra.controllers.manager;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the workload integration tests share: a manager running only the controllers under test, a
 * namespace each, and the kubelet's part done by hand (no kubelet runs here): pod phases and
 * readiness written through the status subresource.
 */
final class WorkloadTestSupport {
  private WorkloadTestSupport() {}

  static ControllerManager.Handle start(KubernetesClient client, String... controllers) {
    return ControllerManager.start(
        Ctx.background("controller-manager"),
        client,
        ControllerManagerOptions.defaults().withControllers(List.of(controllers)));
  }

  /**
   * A manager with the garbage collector and namespace controller besides {@code controllers},
   * paced for tests (no grace period before a deleted namespace is emptied, content checked again
   * within a second).
   */
  static ControllerManager.Handle startWithGc(KubernetesClient client, String... controllers) {
    List<String> all = new java.util.ArrayList<>(List.of(controllers));
    all.add(io.jdra.controllers.garbagecollector.GarbageCollector.NAME);
    all.add(io.jdra.controllers.namespace.NamespaceController.NAME);
    return ControllerManager.start(
        Ctx.background("controller-manager"),
        client,
        ControllerManagerOptions.defaults()
            .withControllers(all)
            .withLifecycle(
                LifecycleOptions.defaults()
                    .withNamespace(
                        new io.jdra.controllers.namespace.NamespaceController.Options(
                            java.time.Duration.ZERO, java.time.Duration.ofSeconds(1)))));
  }

  static void namespace(KubernetesClient client, String ns) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
  }

  static PodTemplateSpec template(Map<String, String> labels, String image) {
    return new PodTemplateSpecBuilder()
        .withNewMetadata()
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("c")
        .withImage(image)
        .endContainer()
        .endSpec()
        .build();
  }

  /** Non-terminating pods of the namespace. */
  static List<Pod> livePods(KubernetesClient client, String ns) {
    return client.pods().inNamespace(ns).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .toList();
  }

  /** The kubelet's part: the pod runs and is ready (or not). */
  static void markRunning(KubernetesClient client, Pod p, boolean ready) {
    client
        .pods()
        .inNamespace(p.getMetadata().getNamespace())
        .resource(
            new PodBuilder(p)
                .withNewStatus()
                .withPhase("Running")
                .addNewCondition()
                .withType("Ready")
                .withStatus(ready ? "True" : "False")
                .withLastTransitionTime(Instant.now().toString())
                .endCondition()
                .endStatus()
                .build())
        .updateStatus();
  }

  /** The kubelet's part: the pod's container exited with {@code exitCode} just now. */
  static void markFinished(KubernetesClient client, Pod p, int exitCode) {
    markFinished(client, p, exitCode, Instant.now());
  }

  /** The kubelet's part: the pod's container exited with {@code exitCode} at {@code at}. */
  static void markFinished(KubernetesClient client, Pod p, int exitCode, Instant at) {
    client
        .pods()
        .inNamespace(p.getMetadata().getNamespace())
        .resource(
            new PodBuilder(p)
                .withNewStatus()
                .withPhase(exitCode == 0 ? "Succeeded" : "Failed")
                .addNewContainerStatus()
                .withName("c")
                .withImage(p.getSpec().getContainers().get(0).getImage())
                .withImageID("")
                .withReady(false)
                .withRestartCount(0)
                .withNewState()
                .withNewTerminated()
                .withExitCode(exitCode)
                .withFinishedAt(at.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString())
                .withReason(exitCode == 0 ? "Completed" : "Error")
                .endTerminated()
                .endState()
                .endContainerStatus()
                .endStatus()
                .build())
        .updateStatus();
  }
}
