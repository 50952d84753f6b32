package io.jdra.controllers.garbagecollector;

/**
 * A change the graph builder applies (upstream's {@code event}): what an informer saw, or a virtual
 * delete from a worker that found an object gone. {@code old} is null but for updates.
 */
record GraphEvent(Type type, ObjectMeta old, ObjectMeta obj) {
  enum Type {
    ADD,
    UPDATE,
    DELETE,
    /** A worker found the object absent (404 or another UID) where the graph has a node. */
    VIRTUAL_DELETE
  }

  static GraphEvent virtualDelete(ObjectIdentity identity) {
    return new GraphEvent(
        Type.VIRTUAL_DELETE,
        null,
        new ObjectMeta(identity, java.util.List.of(), java.util.List.of(), true, ""));
  }
}
