package io.jdra.controllers.devicetainteviction;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.Objects;

/**
 * One pod instance: namespace, name and UID (upstream's {@code tainteviction.NamespacedObject}). A
 * pod re-created under the same name is a different instance. Immutable.
 */
record PodRef(String namespace, String name, String uid) {
  PodRef {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    uid = uid == null ? "" : uid;
  }

  static PodRef of(Pod pod) {
    var meta = pod.getMetadata();
    return new PodRef(
        Objects.requireNonNullElse(meta.getNamespace(), ""), meta.getName(), meta.getUid());
  }

  /** {@code namespace/name}, as klog prints an object reference. */
  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
