package io.jdra.runtime.workqueue;

import io.jdra.runtime.clock.Clock;

/** client-go's rate limiting queue: {@code addRateLimited} is {@code addAfter(when(item))}. */
final class RateLimiting<T> extends Delaying<T> implements RateLimitingQueue<T> {
  private final RateLimiter<T> limiter;

  RateLimiting(QueueMetrics<T> metrics, Clock clock, RateLimiter<T> limiter) {
    super(metrics, clock);
    this.limiter = limiter;
  }

  @Override
  public void addRateLimited(T item) {
    addAfter(item, limiter.when(item));
  }

  @Override
  public void forget(T item) {
    limiter.forget(item);
  }

  @Override
  public int numRequeues(T item) {
    return limiter.numRequeues(item);
  }
}
