package io.jdra.kubeletplugin;

/** Identifies a claim by namespace, name and UID (upstream kubeletplugin.NamespacedObject). */
public record NamespacedObject(String namespace, String name, String uid) {
  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
