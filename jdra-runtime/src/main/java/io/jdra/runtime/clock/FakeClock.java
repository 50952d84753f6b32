package io.jdra.runtime.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A clock for tests (k8s.io/utils/clock/testing.FakeClock): time moves only when the test calls
 * {@link #step} or {@link #setTime}. Due tasks then run synchronously on the caller's thread, in
 * time order (ties in the order they were scheduled), each seeing {@link #now()} at its own due
 * time; tasks they schedule that fall due within the step run in the same call. Thread-safe.
 */
public final class FakeClock implements Clock {
  private final PriorityQueue<Waiter> waiters =
      new PriorityQueue<>(
          (a, b) -> a.at.equals(b.at) ? Long.compare(a.seq, b.seq) : a.at.compareTo(b.at));
  private Instant now;
  private long seq;

  public FakeClock(Instant start) {
    this.now = start;
  }

  /** A fake clock at a fixed, recognisable instant (2026-01-01T00:00:00Z). */
  public FakeClock() {
    this(Instant.parse("2026-01-01T00:00:00Z"));
  }

  @Override
  public synchronized Instant now() {
    return now;
  }

  @Override
  public Timer schedule(Duration delay, Runnable task) {
    Waiter w;
    synchronized (this) {
      Instant at = delay.isNegative() ? now : now.plus(delay);
      w = new Waiter(at, seq++, task);
      waiters.add(w);
    }
    return () -> {
      synchronized (FakeClock.this) {
        return waiters.remove(w);
      }
    };
  }

  /** Advances time by {@code d} (not negative), running the tasks that fall due. */
  public void step(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("cannot step a clock backwards: " + d);
    }
    Instant target;
    synchronized (this) {
      target = now.plus(d);
    }
    setTime(target);
  }

  /**
   * Sets the time, running the tasks due by then. Setting an earlier time moves the clock back and
   * runs nothing.
   */
  public void setTime(Instant t) {
    while (true) {
      Waiter due;
      synchronized (this) {
        Waiter first = waiters.peek();
        if (first == null || first.at.isAfter(t)) {
          now = t;
          return;
        }
        due = waiters.poll();
        if (due.at.isAfter(now)) {
          now = due.at;
        }
      }
      // Outside the lock: the task may read the clock or schedule more.
      due.task.run();
    }
  }

  /** Whether any task is scheduled and not yet run. */
  public synchronized boolean hasWaiters() {
    return !waiters.isEmpty();
  }

  /** The number of tasks scheduled and not yet run. */
  public synchronized int waiters() {
    return waiters.size();
  }

  /** When the scheduled tasks fall due, earliest first. */
  public synchronized List<Instant> waiterTimes() {
    List<Waiter> copy = new ArrayList<>(waiters);
    copy.sort(waiters.comparator());
    return copy.stream().map(w -> w.at).toList();
  }

  private record Waiter(Instant at, long seq, Runnable task) {}
}
