package io.jdra.apiserver.admission;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.registry.ResourceType;
import java.util.Set;

/**
 * The delete rule of upstream's NamespaceLifecycle admission plugin: the namespaces the server
 * itself needs may not be deleted, or creates in them would fail until a restart. Stateless.
 */
public final class NamespaceLifecycle {
  /** Upstream's immortal namespaces (kube-node-lease is not among them). */
  static final Set<String> IMMORTAL = Set.of("default", "kube-system", "kube-public");

  private NamespaceLifecycle() {}

  /**
   * Refuses the deletion of an immortal namespace.
   *
   * @throws ApiException 403 Forbidden, as upstream words it
   */
  public static void checkDelete(ResourceType t, String name) {
    if (t.group().isEmpty() && t.plural().equals("namespaces") && IMMORTAL.contains(name)) {
      throw ApiException.forbidden(t, name, "this namespace may not be deleted");
    }
  }
}
