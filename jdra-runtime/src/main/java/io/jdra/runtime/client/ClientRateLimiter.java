package io.jdra.runtime.client;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.workqueue.RateLimiter;
import io.jdra.runtime.workqueue.RateLimiters;
import java.time.Duration;

/**
 * client-go's client-side rate limit (a token bucket of QPS and burst) as a fabric8 interceptor:
 * each request waits for its token on the thread that sends it, as client-go blocks the calling
 * goroutine.
 */
final class ClientRateLimiter implements Interceptor {
  /** Waits; replaceable in tests. */
  interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  private final RateLimiter<Object> bucket;
  private final Sleeper sleeper;

  ClientRateLimiter(float qps, int burst, Clock clock, Sleeper sleeper) {
    this.bucket = RateLimiters.bucket(qps, burst, clock);
    this.sleeper = sleeper;
  }

  ClientRateLimiter(float qps, int burst) {
    this(qps, burst, Clock.system(), d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000));
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    acquire();
  }

  /** Takes a token, waiting as long as the bucket says. */
  void acquire() {
    Duration wait = bucket.when(this);
    if (wait.isZero()) {
      return;
    }
    try {
      sleeper.sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
