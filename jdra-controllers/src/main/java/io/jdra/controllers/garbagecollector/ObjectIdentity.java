package io.jdra.controllers.garbagecollector;

import io.fabric8.kubernetes.api.model.OwnerReference;

/**
 * An object's coordinates in the graph (upstream's {@code objectReference}): an owner reference's
 * apiVersion, kind, name and UID, plus the namespace (a namespaced owner lives in its dependent's
 * namespace; empty for cluster-scoped objects).
 */
record ObjectIdentity(String apiVersion, String kind, String namespace, String name, String uid) {
  ObjectIdentity {
    namespace = namespace == null ? "" : namespace;
  }

  static ObjectIdentity ofOwner(OwnerReference ref, String dependentNamespace) {
    return new ObjectIdentity(
        ref.getApiVersion(), ref.getKind(), dependentNamespace, ref.getName(), ref.getUid());
  }

  /** As upstream logs an identity. */
  @Override
  public String toString() {
    return "["
        + apiVersion
        + "/"
        + kind
        + ", namespace: "
        + namespace
        + ", name: "
        + name
        + ", uid: "
        + uid
        + "]";
  }
}
