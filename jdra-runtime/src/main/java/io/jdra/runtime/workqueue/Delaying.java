package io.jdra.runtime.workqueue;

import io.jdra.runtime.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * client-go's delaying queue. Instead of upstream's waiting goroutine, each waiting item has one
 * timer on the clock; an item added again keeps the earlier of its two ready times.
 */
class Delaying<T> extends Queue<T> implements DelayingQueue<T> {
  private final Clock clock;
  private final Map<T, Waiting> waiting = new HashMap<>();

  Delaying(QueueMetrics<T> metrics, Clock clock) {
    super(metrics);
    this.clock = clock;
  }

  @Override
  public void addAfter(T item, Duration delay) {
    Objects.requireNonNull(item, "work queue item");
    if (shuttingDown()) {
      return;
    }
    metrics().retry();
    if (delay.isNegative() || delay.isZero()) {
      add(item);
      return;
    }
    Instant readyAt = clock.now().plus(delay);
    synchronized (waiting) {
      Waiting existing = waiting.get(item);
      if (existing != null && !readyAt.isBefore(existing.readyAt)) {
        return;
      }
      if (existing != null) {
        existing.timer.cancel();
      }
      Waiting w = new Waiting(readyAt);
      waiting.put(item, w);
      w.timer = clock.schedule(delay, () -> fire(item, w));
    }
  }

  private void fire(T item, Waiting w) {
    synchronized (waiting) {
      if (waiting.get(item) != w) {
        return; // superseded by an earlier time
      }
      waiting.remove(item);
    }
    add(item);
  }

  @Override
  public void shutDown() {
    super.shutDown();
    cancelWaiting();
  }

  @Override
  public void shutDownWithDrain() {
    cancelWaiting();
    super.shutDownWithDrain();
  }

  private void cancelWaiting() {
    synchronized (waiting) {
      waiting.values().forEach(w -> w.timer.cancel());
      waiting.clear();
    }
  }

  private static final class Waiting {
    final Instant readyAt;
    Clock.Timer timer;

    Waiting(Instant readyAt) {
      this.readyAt = readyAt;
    }
  }
}
