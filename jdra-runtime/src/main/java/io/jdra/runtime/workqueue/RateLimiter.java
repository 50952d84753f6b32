package io.jdra.runtime.workqueue;

import java.time.Duration;

/**
 * Decides how long an item waits before it is retried ({@code util/workqueue.TypedRateLimiter}).
 * Thread-safe.
 */
public interface RateLimiter<T> {
  /** How long the item should wait now; calling this counts one failure of the item. */
  Duration when(T item);

  /** Forgets the item's failures. */
  void forget(T item);

  /** The number of failures the item has had. */
  int numRequeues(T item);
}
