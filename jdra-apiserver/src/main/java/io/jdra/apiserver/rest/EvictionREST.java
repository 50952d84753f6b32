package io.jdra.apiserver.rest;

import io.jdra.apiserver.registry.ResourceType;
import java.util.concurrent.CompletableFuture;

/**
 * {@code pods/eviction}, upstream's {@code EvictionREST} without PodDisruptionBudgets (none are
 * served): deletes the pod with the eviction's delete options. Stateless.
 */
public final class EvictionREST {
  private EvictionREST() {}

  /** Evicts the pod; the future completes when the deletion is durable. */
  public static CompletableFuture<ObjectService.DeleteResult> evict(
      ObjectService service, ResourceType pods, String namespace, String name, DeleteOptions o) {
    return service.delete(pods, namespace, name, o);
  }
}
