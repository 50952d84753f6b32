package io.jdra.kubelet.dra;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Where the manager reads ResourceClaims from. Upstream reads them from the API server on every
 * prepare (not from an informer), so a claim that was just allocated and reserved is never seen
 * stale; {@link #apiServer} does the same.
 */
@FunctionalInterface
public interface ClaimSource {
  /** The claim, or null when it does not exist. Throws on transport errors. */
  ResourceClaim get(String namespace, String name);

  static ClaimSource apiServer(KubernetesClient client) {
    return (ns, name) -> client.resources(ResourceClaim.class).inNamespace(ns).withName(name).get();
  }
}
