package io.jdra.runtime.workqueue;

/**
 * A {@link DelayingQueue} with per-item backoff ({@code
 * util/workqueue.TypedRateLimitingInterface}).
 *
 * <p>The usual worker loop: {@code get}; process; on success {@code forget(item)}, on failure
 * {@code addRateLimited(item)}; then always {@code done(item)}.
 */
public interface RateLimitingQueue<T> extends DelayingQueue<T> {
  /** Adds the item after the delay the rate limiter gives it now (counts a failure). */
  void addRateLimited(T item);

  /** Clears the item's failure history (call after it was processed successfully). */
  void forget(T item);

  /** How often the item was re-added with {@code addRateLimited} since the last forget. */
  int numRequeues(T item);
}
