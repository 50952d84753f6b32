package io.jdra.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.runtime.clock.FakeClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateLimitingQueueTest {
  private final FakeClock clock = new FakeClock();
  private final RateLimitingQueue<String> q =
      WorkQueues.rateLimiting(
          "test",
          RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(1000)),
          clock,
          null);

  @Test
  void failedItemsComeBackAfterTheirBackoffAndForgetResetsIt() {
    q.add("a");
    String item = q.get();
    q.addRateLimited(item);
    q.done(item);
    assertThat(q.len()).isZero();
    assertThat(q.numRequeues("a")).isEqualTo(1);

    clock.step(Duration.ofMillis(5));
    assertThat(q.get()).isEqualTo("a");
    q.addRateLimited("a");
    q.done("a");
    clock.step(Duration.ofMillis(9));
    assertThat(q.len()).as("second failure waits 10 ms").isZero();
    clock.step(Duration.ofMillis(1));
    assertThat(q.get()).isEqualTo("a");

    q.forget("a");
    q.done("a");
    assertThat(q.numRequeues("a")).isZero();
  }
}
