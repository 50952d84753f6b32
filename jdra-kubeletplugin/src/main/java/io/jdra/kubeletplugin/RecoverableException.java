package io.jdra.kubeletplugin;

/**
 * Marks an error passed to {@link DraPlugin#handleError} that the SDK retries by itself (upstream's
 * {@code ErrRecoverable}): for example a ResourceSlice that could not be published yet. The cause
 * is the actual error.
 */
public final class RecoverableException extends RuntimeException {
  public RecoverableException(Throwable cause) {
    super(cause.getMessage(), cause);
  }

  /** Whether {@code err} or one of its causes is recoverable. */
  public static boolean isRecoverable(Throwable err) {
    for (Throwable t = err; t != null; t = t.getCause()) {
      if (t instanceof RecoverableException) {
        return true;
      }
    }
    return false;
  }
}
