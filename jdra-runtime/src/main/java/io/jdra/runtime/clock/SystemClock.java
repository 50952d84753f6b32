package io.jdra.runtime.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** The wall clock. One daemon thread runs all scheduled tasks of the process. */
final class SystemClock implements Clock {
  static final SystemClock INSTANCE = new SystemClock();

  private final ScheduledThreadPoolExecutor timers;

  private SystemClock() {
    timers =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "jdra-clock");
              t.setDaemon(true);
              return t;
            });
    // Cancelled timers (for example the per-item delays of work queues) must not pile up.
    timers.setRemoveOnCancelPolicy(true);
  }

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public Timer schedule(Duration delay, Runnable task) {
    long nanos = Math.max(0, saturatedNanos(delay));
    ScheduledFuture<?> f = timers.schedule(guard(task), nanos, TimeUnit.NANOSECONDS);
    return () -> f.cancel(false);
  }

  /** An exception in one task must not kill the shared thread's later tasks. */
  private static Runnable guard(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        Thread t = Thread.currentThread();
        t.getUncaughtExceptionHandler().uncaughtException(t, e);
      }
    };
  }

  static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
