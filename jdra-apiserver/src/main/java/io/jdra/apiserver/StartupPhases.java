package io.jdra.apiserver;

import java.util.ArrayList;
import java.util.List;

/**
 * Wall-clock time of each step of the server's start, logged once so that a slow start says where
 * its time went ({@code jdra up} starts the server every time).
 */
final class StartupPhases {
  private final long start = System.nanoTime();
  private final List<String> ended = new ArrayList<>();
  private long last = start;

  /** Ends the phase that began when the previous one ended. */
  void end(String phase) {
    long now = System.nanoTime();
    ended.add(phase + " " + millis(now - last) + " ms");
    last = now;
  }

  @Override
  public String toString() {
    return millis(last - start) + " ms (" + String.join(", ", ended) + ")";
  }

  private static long millis(long nanos) {
    return nanos / 1_000_000;
  }
}
