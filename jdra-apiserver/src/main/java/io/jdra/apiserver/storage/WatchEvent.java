package io.jdra.apiserver.storage;

/**
 * A change to one object.
 *
 * @param type ADDED, MODIFIED or DELETED
 * @param object the object after the change; for DELETED its last state at the deletion's
 *     resourceVersion
 * @param previous the object before the change, null for ADDED
 */
public record WatchEvent(Type type, StoredObject object, StoredObject previous) {
  /** Event types as on the wire. */
  public enum Type {
    ADDED,
    MODIFIED,
    DELETED
  }

  public long resourceVersion() {
    return object.resourceVersion();
  }
}
