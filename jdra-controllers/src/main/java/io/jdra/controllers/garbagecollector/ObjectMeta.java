package io.jdra.controllers.garbagecollector;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.List;

/**
 * What the collector reads of an object (its {@code PartialObjectMetadata}): identity, owners,
 * finalizers, whether it is being deleted, and the resourceVersion its writes are conditional on.
 * Immutable.
 */
record ObjectMeta(
    ObjectIdentity identity,
    List<OwnerReference> owners,
    List<String> finalizers,
    boolean beingDeleted,
    String resourceVersion) {
  static final String FINALIZER_ORPHAN = "orphan";
  static final String FINALIZER_DELETE_DEPENDENTS = "foregroundDeletion";

  ObjectMeta {
    owners = List.copyOf(owners);
    finalizers = List.copyOf(finalizers);
  }

  static ObjectMeta of(GenericKubernetesResource o) {
    var m = o.getMetadata();
    return new ObjectMeta(
        new ObjectIdentity(
            o.getApiVersion(), o.getKind(), m.getNamespace(), m.getName(), m.getUid()),
        m.getOwnerReferences() == null ? List.of() : m.getOwnerReferences(),
        m.getFinalizers() == null ? List.of() : m.getFinalizers(),
        m.getDeletionTimestamp() != null,
        m.getResourceVersion());
  }

  boolean hasFinalizer(String f) {
    return finalizers.contains(f);
  }

  /** Upstream's {@code deletionStartsWithFinalizer}: being deleted, and {@code f} says how. */
  boolean deletingWith(String f) {
    return beingDeleted && hasFinalizer(f);
  }
}
