package io.jdra.controllers.resourceclaim;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * A sync failed; the key is retried with backoff. Messages read as upstream's wrapped errors:
 * {@code pod ns/p, PodResourceClaim gpu: create ResourceClaim p-gpu-: <API server message>}.
 */
final class SyncException extends RuntimeException {
  SyncException(String message) {
    super(message);
  }

  private SyncException(String message, Throwable cause) {
    super(message, cause);
  }

  /** {@code context: cause}, with the API server's own message for API errors. */
  static SyncException wrap(String context, Throwable cause) {
    return new SyncException(context + ": " + message(cause), cause);
  }

  /** The API server's status message for API errors, else the exception's message. */
  static String message(Throwable e) {
    if (e instanceof KubernetesClientException k
        && k.getStatus() != null
        && k.getStatus().getMessage() != null) {
      return k.getStatus().getMessage();
    }
    return e.getMessage();
  }

  /** Whether the API server answered 409 Conflict (a stale resourceVersion): retry soon. */
  static boolean isConflict(Throwable e) {
    return e instanceof KubernetesClientException k && k.getCode() == 409
        || e.getCause() != null && e.getCause() != e && isConflict(e.getCause());
  }
}
