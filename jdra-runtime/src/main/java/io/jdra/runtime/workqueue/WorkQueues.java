package io.jdra.runtime.workqueue;

import io.jdra.runtime.clock.Clock;
import java.util.Objects;

/**
 * Factories for the queues (client-go's {@code NewTypedWithConfig}, {@code
 * NewTypedDelayingQueueWithConfig}, {@code NewTypedRateLimitingQueueWithConfig}). The name labels
 * the {@code workqueue_*} metrics (upstream names, e.g. {@code resource_claim}); with null metrics
 * the queue records none. Queues own no thread: delays are timers on the clock.
 */
public final class WorkQueues {
  private WorkQueues() {}

  public static <T> WorkQueue<T> basic(String name, Clock clock, WorkQueueMetrics metrics) {
    return new Queue<>(WorkQueueMetrics.forQueue(metrics, name, clock));
  }

  public static <T> DelayingQueue<T> delaying(String name, Clock clock, WorkQueueMetrics metrics) {
    Objects.requireNonNull(clock, "clock");
    return new Delaying<>(WorkQueueMetrics.forQueue(metrics, name, clock), clock);
  }

  public static <T> RateLimitingQueue<T> rateLimiting(
      String name, RateLimiter<T> limiter, Clock clock, WorkQueueMetrics metrics) {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(limiter, "rate limiter");
    return new RateLimiting<>(WorkQueueMetrics.forQueue(metrics, name, clock), clock, limiter);
  }
}
