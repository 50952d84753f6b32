package io.jdra.apiserver.http;

/** One request in flight in memory. Thread-safe. */
public interface InProcessCall {
  /**
   * Asks for the next body bytes: one {@link InProcessResponse#chunks} call when there are some.
   */
  void request();

  /** The client goes away: the server sees its peer close (a watch ends). */
  void cancel();
}
