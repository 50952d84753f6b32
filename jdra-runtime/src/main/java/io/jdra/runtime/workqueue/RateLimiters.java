package io.jdra.runtime.workqueue;

import io.jdra.runtime.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The rate limiters of client-go's {@code util/workqueue/default_rate_limiters.go}. */
public final class RateLimiters {
  private RateLimiters() {}

  /**
   * Upstream's {@code DefaultTypedControllerRateLimiter}: the larger of a per-item exponential
   * backoff (5 ms doubling up to 1000 s) and an overall token bucket of 10 qps with burst 100, so a
   * single failing item backs off while a storm of failures cannot exceed 10 retries/s.
   */
  public static <T> RateLimiter<T> defaultController() {
    return defaultController(Clock.system());
  }

  /** {@link #defaultController()} with the bucket timed on {@code clock}. */
  public static <T> RateLimiter<T> defaultController(Clock clock) {
    return max(exponential(Duration.ofMillis(5), Duration.ofSeconds(1000)), bucket(10, 100, clock));
  }

  /**
   * Per-item exponential backoff ({@code ItemExponentialFailureRateLimiter}): the n-th failure of
   * an item (counting from 0) waits {@code base * 2^n}, capped at {@code max}.
   */
  public static <T> RateLimiter<T> exponential(Duration base, Duration max) {
    return new Exponential<>(base, max);
  }

  /**
   * An overall token bucket ({@code BucketRateLimiter}): {@code burst} retries at once, then {@code
   * qps} per second, regardless of the item. It keeps no per-item state.
   */
  public static <T> RateLimiter<T> bucket(double qps, int burst) {
    return bucket(qps, burst, Clock.system());
  }

  public static <T> RateLimiter<T> bucket(double qps, int burst, Clock clock) {
    return new Bucket<>(qps, burst, clock);
  }

  /**
   * {@code ItemFastSlowRateLimiter}: {@code fast} for the first {@code maxFastAttempts} failures of
   * an item, {@code slow} after.
   */
  public static <T> RateLimiter<T> fastSlow(Duration fast, Duration slow, int maxFastAttempts) {
    return new FastSlow<>(fast, slow, maxFastAttempts);
  }

  /** The longest delay of the given limiters ({@code MaxOfRateLimiter}). */
  @SafeVarargs
  public static <T> RateLimiter<T> max(RateLimiter<T>... limiters) {
    if (limiters.length == 0) {
      throw new IllegalArgumentException("max() needs at least one rate limiter");
    }
    return new MaxOf<>(List.of(limiters));
  }

  private static final class Exponential<T> implements RateLimiter<T> {
    private final Map<T, Integer> failures = new HashMap<>();
    private final long baseNanos;
    private final Duration max;

    Exponential(Duration base, Duration max) {
      if (base.isNegative() || max.isNegative()) {
        throw new IllegalArgumentException("backoff delays must not be negative");
      }
      this.baseNanos = base.toNanos();
      this.max = max;
    }

    @Override
    public synchronized Duration when(T item) {
      int exp = failures.getOrDefault(item, 0);
      failures.put(item, exp + 1);
      double backoff = baseNanos * Math.pow(2, exp);
      if (backoff >= Long.MAX_VALUE) {
        return max;
      }
      Duration d = Duration.ofNanos((long) backoff);
      return d.compareTo(max) > 0 ? max : d;
    }

    @Override
    public synchronized void forget(T item) {
      failures.remove(item);
    }

    @Override
    public synchronized int numRequeues(T item) {
      return failures.getOrDefault(item, 0);
    }
  }

  /** golang.org/x/time/rate's Limiter as used through Reserve().Delay(). */
  private static final class Bucket<T> implements RateLimiter<T> {
    private final double qps;
    private final int burst;
    private final Clock clock;
    private double tokens;
    private Instant last;

    Bucket(double qps, int burst, Clock clock) {
      if (!(qps > 0) || burst < 1) {
        throw new IllegalArgumentException(
            "token bucket needs qps > 0 and burst >= 1, got qps " + qps + ", burst " + burst);
      }
      this.qps = qps;
      this.burst = burst;
      this.clock = clock;
      this.tokens = burst;
    }

    @Override
    public synchronized Duration when(T item) {
      Instant now = clock.now();
      if (last != null && now.isAfter(last)) {
        double elapsed = Duration.between(last, now).toNanos() / 1e9;
        tokens = Math.min(burst, tokens + elapsed * qps);
      }
      if (last == null || now.isAfter(last)) {
        last = now;
      }
      tokens -= 1;
      if (tokens >= 0) {
        return Duration.ZERO;
      }
      return Duration.ofNanos((long) Math.ceil(-tokens / qps * 1e9));
    }

    @Override
    public void forget(T item) {}

    @Override
    public int numRequeues(T item) {
      return 0;
    }
  }

  private static final class FastSlow<T> implements RateLimiter<T> {
    private final Map<T, Integer> failures = new HashMap<>();
    private final Duration fast;
    private final Duration slow;
    private final int maxFast;

    FastSlow(Duration fast, Duration slow, int maxFast) {
      this.fast = fast;
      this.slow = slow;
      this.maxFast = maxFast;
    }

    @Override
    public synchronized Duration when(T item) {
      int n = failures.merge(item, 1, Integer::sum);
      return n <= maxFast ? fast : slow;
    }

    @Override
    public synchronized void forget(T item) {
      failures.remove(item);
    }

    @Override
    public synchronized int numRequeues(T item) {
      return failures.getOrDefault(item, 0);
    }
  }

  private record MaxOf<T>(List<RateLimiter<T>> limiters) implements RateLimiter<T> {
    @Override
    public Duration when(T item) {
      Duration max = Duration.ZERO;
      for (RateLimiter<T> l : limiters) {
        Duration d = l.when(item);
        if (d.compareTo(max) > 0) {
          max = d;
        }
      }
      return max;
    }

    @Override
    public void forget(T item) {
      limiters.forEach(l -> l.forget(item));
    }

    @Override
    public int numRequeues(T item) {
      int max = 0;
      for (RateLimiter<T> l : limiters) {
        max = Math.max(max, l.numRequeues(item));
      }
      return max;
    }
  }
}
