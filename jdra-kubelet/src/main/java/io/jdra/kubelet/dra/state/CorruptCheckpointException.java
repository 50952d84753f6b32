package io.jdra.kubelet.dra.state;

import java.io.IOException;

/**
 * The checkpoint file exists but cannot be trusted: its checksum does not match its data, or it is
 * not a DRA checkpoint at all. Upstream kubelet refuses to start in that case rather than forget
 * prepared claims (which would leak devices); so does this one.
 */
public final class CorruptCheckpointException extends IOException {
  public CorruptCheckpointException(String message) {
    super(message);
  }

  public CorruptCheckpointException(String message, Throwable cause) {
    super(message, cause);
  }
}
