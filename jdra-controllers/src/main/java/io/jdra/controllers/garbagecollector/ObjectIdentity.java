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

  ObjectIdentity withNamespace(String ns) {
    return new ObjectIdentity(apiVersion, kind, ns, name, uid);
  }

  /** Upstream's {@code ownerReferenceMatchesCoordinates}: UID, name, kind and apiVersion agree. */
  boolean matchesCoordinates(OwnerReference ref) {
    return uid.equals(ref.getUid())
        && name.equals(ref.getName())
        && kind.equals(ref.getKind())
        && apiVersion.equals(ref.getApiVersion());
  }

  /**
   * Upstream's {@code referenceLessThan}: kind, then apiVersion (so kinds order alike whatever
   * their scope), then namespace, name and UID.
   */
  static final java.util.Comparator<ObjectIdentity> ORDER =
      java.util.Comparator.comparing(ObjectIdentity::kind)
          .thenComparing(ObjectIdentity::apiVersion)
          .thenComparing(ObjectIdentity::namespace)
          .thenComparing(ObjectIdentity::name)
          .thenComparing(ObjectIdentity::uid);

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
