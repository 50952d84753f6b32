package io.jdra.kubelet.dra.plugin;

/** A call to a DRA driver failed as a whole: not connected, timed out, or an error status. */
public final class DraCallException extends Exception {
  public DraCallException(String message, Throwable cause) {
    super(message, cause);
  }

  public DraCallException(String message) {
    super(message);
  }
}
