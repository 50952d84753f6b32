package io.jdra.runtime.logging;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** klog's object references for log values: {@code Klog.kobj(pod)} renders as "ns/name". */
public final class Klog {
  private Klog() {}

  /**
   * A reference to a Kubernetes object, rendered "namespace/name" (or "name" if cluster-scoped).
   */
  public record ObjectRef(String namespace, String name) {
    @Override
    public String toString() {
      return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }
  }

  /** The reference of an object; a null object gives an empty reference, as klog.KObj(nil). */
  public static ObjectRef kobj(HasMetadata obj) {
    if (obj == null || obj.getMetadata() == null) {
      return new ObjectRef("", "");
    }
    return new ObjectRef(obj.getMetadata().getNamespace(), obj.getMetadata().getName());
  }

  public static ObjectRef kref(String namespace, String name) {
    return new ObjectRef(namespace, name);
  }
}
