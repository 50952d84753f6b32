package io.jdra.kubeletplugin.internal;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.runtime.client.ApiRequests;

/**
 * One GET of a ResourceClaim from the API server, as upstream's helper does for every claim of
 * every NodePrepareResources call (no cache: the claim is read as it is now). It goes through
 * {@link ApiRequests} (the client's own HTTP client with the URL put together once): the client's
 * generic resource operation spent about as much CPU on building the request URL and its per-call
 * configuration as the driver spent on writing the CDI spec.
 */
final class ClaimGetter {
  private final ApiRequests.Resource<ResourceClaim> claims;

  ClaimGetter(KubernetesClient client) {
    this.claims =
        new ApiRequests(client)
            .resource("resource.k8s.io/v1", "resourceclaims", ResourceClaim.class);
  }

  /**
   * The claim, or null when there is none of that name.
   *
   * @throws IllegalStateException the API server did not answer with the claim (message has the
   *     HTTP status and the API server's message, or what kept the request from an answer)
   */
  ResourceClaim get(String namespace, String name) {
    try {
      return claims.get(namespace, name);
    } catch (KubernetesClientException e) {
      throw new IllegalStateException(message(e), e);
    }
  }

  /** The API server's own words where it answered, as upstream's error for the claim reads. */
  private static String message(KubernetesClientException e) {
    Status status = e.getStatus();
    if (e.getCode() > 0 && status != null) {
      return "HTTP " + e.getCode() + ": " + status.getMessage();
    }
    Throwable cause = e.getCause() != null ? e.getCause() : e;
    return String.valueOf(cause.getMessage());
  }
}
