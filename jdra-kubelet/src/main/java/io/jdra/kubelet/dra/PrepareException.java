package io.jdra.kubelet.dra;

/**
 * Preparing or unpreparing a pod's claims failed. The message is meant for the pod's events and
 * status (upstream's conventions: no pod name, familiar terms, short), e.g. {@code prepare dynamic
 * resources: DRA driver gpu.example.com is not registered}.
 */
public final class PrepareException extends Exception {
  public PrepareException(String message) {
    super(message);
  }

  public PrepareException(String message, Throwable cause) {
    super(message, cause);
  }
}
