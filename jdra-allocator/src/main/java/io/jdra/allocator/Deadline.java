package io.jdra.allocator;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When an allocation must give up. The allocator polls it while searching, often enough to stop
 * within a few milliseconds after it passed, and then fails with {@code filter operation aborted:
 * context deadline exceeded}, as the scheduler's filter timeout does upstream.
 */
@FunctionalInterface
public interface Deadline {
  /** Whether the deadline has passed. Must be cheap; called every few microseconds. */
  boolean expired();

  /** No deadline. */
  static Deadline none() {
    return () -> false;
  }

  /** A deadline {@code timeout} after now on the given nanosecond clock (fake in tests). */
  static Deadline after(Duration timeout, LongSupplier nanoClock) {
    long end = nanoClock.getAsLong() + timeout.toNanos();
    return () -> nanoClock.getAsLong() - end >= 0;
  }

  /** A deadline {@code timeout} after now on {@link System#nanoTime()}. */
  static Deadline after(Duration timeout) {
    return after(timeout, System::nanoTime);
  }
}
