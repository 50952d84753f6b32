package io.jdra.runtime.workqueue;

import java.time.Duration;

/**
 * A {@link WorkQueue} that can add items later ({@code util/workqueue.TypedDelayingInterface}),
 * timed on the queue's {@link io.jdra.runtime.clock.Clock}.
 */
public interface DelayingQueue<T> extends WorkQueue<T> {
  /**
   * Adds the item once {@code delay} has passed (at once if not positive). If the item is already
   * waiting, the earlier of the two times wins. Counts as a retry in {@code
   * workqueue_retries_total}. Ignored after shut-down; waiting items are dropped on shut-down.
   */
  void addAfter(T item, Duration delay);
}
