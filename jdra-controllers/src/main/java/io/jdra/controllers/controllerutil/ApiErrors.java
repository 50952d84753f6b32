package io.jdra.controllers.controllerutil;

import io.fabric8.kubernetes.client.KubernetesClientException;

/** Reading API errors as upstream's {@code apierrors} helpers do. Stateless. */
public final class ApiErrors {
  private ApiErrors() {}

  /** The API server's status message for API errors, else the exception's message. */
  public static String message(Throwable e) {
    if (e instanceof KubernetesClientException k
        && k.getStatus() != null
        && k.getStatus().getMessage() != null) {
      return k.getStatus().getMessage();
    }
    return e.getMessage();
  }

  public static boolean isNotFound(Throwable e) {
    return e instanceof KubernetesClientException k && k.getCode() == 404;
  }

  /**
   * A 409 Conflict (a write based on a stale resourceVersion), also when wrapped in another
   * exception with context, as upstream's {@code apierrors.IsConflict} unwraps {@code %w} errors.
   */
  public static boolean isConflict(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof KubernetesClientException k && k.getCode() == 409) {
        return true;
      }
    }
    return false;
  }

  /** Upstream's {@code IsNamespaceTerminating}: creating in a namespace being deleted. */
  public static boolean isNamespaceTerminating(Throwable e) {
    return e instanceof KubernetesClientException k
        && k.getCode() == 403
        && k.getStatus() != null
        && k.getStatus().getDetails() != null
        && k.getStatus().getDetails().getCauses() != null
        && k.getStatus().getDetails().getCauses().stream()
            .anyMatch(c -> "NamespaceTerminating".equals(c.getReason()));
  }
}
