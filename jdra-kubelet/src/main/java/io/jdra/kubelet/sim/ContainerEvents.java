package io.jdra.kubelet.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.jdra.runtime.record.EventRecorder;

/**
 * The events a kubelet records about a pod's containers, with upstream's reasons and messages
 * (pkg/kubelet/events, kuberuntime, images): each regards the pod with the container's field path
 * ({@code spec.containers{NAME}}), which {@code kubectl describe pod} shows before the message.
 */
final class ContainerEvents {
  /** Upstream's actions are empty for the kubelet's legacy events; the API needs one. */
  private static final String ACTION = "Sync";

  private final EventRecorder recorder;

  ContainerEvents(EventRecorder recorder) {
    this.recorder = recorder;
  }

  /** A container created and started: the image is "present", nothing is pulled. */
  void started(Pod pod, Container c, boolean init) {
    ObjectReference ref = ref(pod, c, init);
    recorder.eventf(
        ref,
        EventRecorder.NORMAL,
        "Pulled",
        ACTION,
        "Container image \"%s\" already present on machine and can be accessed by the pod",
        c.getImage());
    recorder.eventf(ref, EventRecorder.NORMAL, "Created", ACTION, "Container created");
    recorder.eventf(ref, EventRecorder.NORMAL, "Started", ACTION, "Container started");
  }

  /** The kubelet stops a running container (pod deleted). */
  void killing(Pod pod, Container c, boolean init) {
    recorder.eventf(
        ref(pod, c, init),
        EventRecorder.NORMAL,
        "Killing",
        ACTION,
        "Stopping container %s",
        c.getName());
  }

  /** A container that exited waits in back-off before it is started again. */
  void backOff(Pod pod, Container c) {
    recorder.eventf(
        ref(pod, c, false),
        EventRecorder.WARNING,
        "BackOff",
        ACTION,
        "Back-off restarting failed container %s in pod %s",
        c.getName(),
        podDesc(pod));
  }

  /** The runtime could not create the container. */
  void failed(Pod pod, Container c, boolean init, String message) {
    recorder.eventf(
        ref(pod, c, init), EventRecorder.WARNING, "Failed", ACTION, "Error: %s", message);
  }

  /** Upstream's format.Pod: {@code name_namespace(uid)}. */
  static String podDesc(Pod pod) {
    var m = pod.getMetadata();
    return m.getName() + "_" + m.getNamespace() + "(" + m.getUid() + ")";
  }

  private static ObjectReference ref(Pod pod, Container c, boolean init) {
    return new ObjectReferenceBuilder()
        .withApiVersion("v1")
        .withKind("Pod")
        .withNamespace(pod.getMetadata().getNamespace())
        .withName(pod.getMetadata().getName())
        .withUid(pod.getMetadata().getUid())
        .withResourceVersion(pod.getMetadata().getResourceVersion())
        .withFieldPath((init ? "spec.initContainers{" : "spec.containers{") + c.getName() + "}")
        .build();
  }
}
