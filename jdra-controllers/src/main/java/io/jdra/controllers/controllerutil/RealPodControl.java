package io.jdra.controllers.controllerutil;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.runtime.record.EventRecorder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/** {@link PodControl} through the API server, with events on the controller object. */
public final class RealPodControl implements PodControl {
  private final KubernetesClient client;
  private final EventRecorder recorder;

  public RealPodControl(KubernetesClient client, EventRecorder recorder) {
    this.client = client;
    this.recorder = recorder;
  }

  @Override
  public Pod createPod(
      String namespace,
      PodTemplateSpec template,
      HasMetadata controller,
      OwnerReference controllerRef,
      String generateName,
      List<String> finalizers) {
    Pod pod = podFromTemplate(template, controllerRef, generateName, finalizers);
    try {
      Pod created = client.pods().inNamespace(namespace).resource(pod).create();
      recorder.eventf(
          controller,
          created,
          EventRecorder.NORMAL,
          SUCCESSFUL_CREATE_POD_REASON,
          "Create",
          "Created pod: %s",
          created.getMetadata().getName());
      return created;
    } catch (KubernetesClientException e) {
      recorder.eventf(
          controller,
          null,
          EventRecorder.WARNING,
          FAILED_CREATE_POD_REASON,
          "Create",
          "Error creating: %s",
          ApiErrors.message(e));
      throw e;
    }
  }

  /** Upstream's {@code GetPodFromTemplate}: the template's metadata and spec, and the owner. */
  static Pod podFromTemplate(
      PodTemplateSpec template,
      OwnerReference controllerRef,
      String generateName,
      List<String> finalizers) {
    ObjectMeta tm = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
    List<String> allFinalizers =
        new ArrayList<>(tm.getFinalizers() == null ? List.of() : tm.getFinalizers());
    for (String f : finalizers) {
      if (!allFinalizers.contains(f)) {
        allFinalizers.add(f);
      }
    }
    return new PodBuilder()
        .withApiVersion("v1")
        .withKind("Pod")
        .withNewMetadata()
        .withGenerateName(generateName)
        .withLabels(tm.getLabels() == null ? null : new LinkedHashMap<>(tm.getLabels()))
        .withAnnotations(
            tm.getAnnotations() == null ? null : new LinkedHashMap<>(tm.getAnnotations()))
        .withFinalizers(allFinalizers.isEmpty() ? null : allFinalizers)
        .withOwnerReferences(controllerRef)
        .endMetadata()
        .withSpec(new PodBuilder().withSpec(template.getSpec()).build().getSpec())
        .build();
  }

  @Override
  public void deletePod(String namespace, String name, HasMetadata controller) {
    try {
      var deleted = client.pods().inNamespace(namespace).withName(name).delete();
      if (deleted.isEmpty()) {
        throw new NotFoundException("pod " + namespace + "/" + name + " not found");
      }
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        throw new NotFoundException("pod " + namespace + "/" + name + " not found");
      }
      recorder.eventf(
          controller,
          null,
          EventRecorder.WARNING,
          FAILED_DELETE_POD_REASON,
          "Delete",
          "Error deleting: %s",
          ApiErrors.message(e));
      throw e;
    }
    recorder.eventf(
        controller,
        null,
        EventRecorder.NORMAL,
        SUCCESSFUL_DELETE_POD_REASON,
        "Delete",
        "Deleted pod: %s",
        name);
  }
}
