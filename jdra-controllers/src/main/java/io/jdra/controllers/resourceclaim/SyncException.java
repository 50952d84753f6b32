package io.jdra.controllers.resourceclaim;

import io.jdra.controllers.controllerutil.ApiErrors;

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
    return new SyncException(context + ": " + ApiErrors.message(cause), cause);
  }
}
