package io.jdra.runtime.record;

/**
 * Who reports events: {@code reportingController} (for example {@code resource-claim-controller})
 * and {@code reportingInstance} (usually the host name plus the controller), and the size of the
 * buffer (upstream 1000).
 */
public record EventRecorderOptions(
    String reportingController, String reportingInstance, int bufferSize) {
  /** Upstream's {@code maxQueuedEvents}. */
  public static final int DEFAULT_BUFFER_SIZE = 1000;

  public EventRecorderOptions {
    if (reportingController == null || reportingController.isEmpty()) {
      throw new IllegalArgumentException("reportingController must be set");
    }
    if (bufferSize < 1) {
      throw new IllegalArgumentException("bufferSize must be >= 1, got " + bufferSize);
    }
    if (reportingInstance == null) {
      reportingInstance = "";
    }
  }

  public EventRecorderOptions(String reportingController, String reportingInstance) {
    this(reportingController, reportingInstance, DEFAULT_BUFFER_SIZE);
  }
}
