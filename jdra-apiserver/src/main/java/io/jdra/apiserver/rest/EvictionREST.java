package io.jdra.apiserver.rest;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code pods/eviction}, upstream's {@code EvictionREST} without PodDisruptionBudgets (none are
 * served): admits the Eviction (with the pod it is about as the old object, so that NodeRestriction
 * can tell whose pod it is), then deletes the pod with the eviction's delete options. Stateless.
 */
public final class EvictionREST {
  private EvictionREST() {}

  /** Evicts the pod; the future completes when the deletion is durable. */
  public static CompletableFuture<ObjectService.DeleteResult> evict(
      ObjectService service,
      ResourceType pods,
      String namespace,
      String name,
      ObjectNode eviction,
      DeleteOptions o) {
    ObjectNode pod = Json.parseObject(service.get(pods, namespace, name).json());
    service.admitSubresource(pods, "eviction", eviction, pod, o.user());
    return service.delete(pods, namespace, name, o);
  }
}
