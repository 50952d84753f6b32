package io.jdra.runtime.clock;

import java.time.Duration;
import java.time.Instant;

/**
 * Time as components see it (k8s.io/utils/clock). Production code takes a Clock instead of calling
 * {@code Instant.now()} or sleeping, so unit tests drive time with {@link FakeClock}.
 *
 * <p>{@link #schedule} runs a task once after a delay. Tasks must be short and must not block (they
 * typically add to a work queue): on the {@linkplain #system() system clock} all tasks share one
 * daemon thread; on a {@link FakeClock} they run on the thread that advances time.
 */
public interface Clock {
  /** The current time. */
  Instant now();

  /** Time elapsed since {@code t}. */
  default Duration since(Instant t) {
    return Duration.between(t, now());
  }

  /**
   * Runs {@code task} once, {@code delay} from now (at once-ish for zero or negative delays, but
   * never on the caller's stack for the system clock).
   */
  Timer schedule(Duration delay, Runnable task);

  /** A scheduled task. */
  interface Timer {
    /** Stops the task from running; returns false if it already ran or was cancelled. */
    boolean cancel();
  }

  /** The wall clock, with a shared daemon thread for scheduled tasks. */
  static Clock system() {
    return SystemClock.INSTANCE;
  }
}
