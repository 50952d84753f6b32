package io.jdra.apiserver.storage;

import java.util.Map;

/**
 * One stored object version: its serialized JSON (which carries this resourceVersion) plus the
 * little metadata that selectors and lists need without parsing. Immutable; the byte array is never
 * modified after construction.
 *
 * @param namespace namespace, {@code ""} for cluster-scoped objects
 * @param name object name
 * @param uid metadata.uid
 * @param resourceVersion the cluster-wide version of this write
 * @param json the object as JSON, in the storage version
 * @param labels metadata.labels
 * @param fields selectable field values (see {@code ResourceType.selectableFields})
 */
public record StoredObject(
    String namespace,
    String name,
    String uid,
    long resourceVersion,
    byte[] json,
    Map<String, String> labels,
    Map<String, String> fields) {

  /** The map key: {@code namespace/name} or just {@code name}. */
  public String key() {
    return key(namespace, name);
  }

  static String key(String namespace, String name) {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }
}
