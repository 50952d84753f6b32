package io.jdra.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.runtime.clock.FakeClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The numbers of client-go's default_rate_limiters_test.go. */
class RateLimitersTest {
  private static Duration ms(long n) {
    return Duration.ofMillis(n);
  }

  @Test
  void exponentialDoublesPerItemUpToTheMaximumAndForgets() {
    RateLimiter<String> l = RateLimiters.exponential(ms(1), Duration.ofSeconds(1));
    assertThat(l.when("one")).isEqualTo(ms(1));
    assertThat(l.when("one")).isEqualTo(ms(2));
    assertThat(l.when("one")).isEqualTo(ms(4));
    assertThat(l.when("one")).isEqualTo(ms(8));
    assertThat(l.when("one")).isEqualTo(ms(16));
    assertThat(l.numRequeues("one")).isEqualTo(5);
    assertThat(l.when("two")).isEqualTo(ms(1));
    assertThat(l.when("two")).isEqualTo(ms(2));
    assertThat(l.numRequeues("two")).isEqualTo(2);

    l.forget("one");
    assertThat(l.numRequeues("one")).isZero();
    assertThat(l.when("one")).isEqualTo(ms(1));
  }

  @Test
  void exponentialCapsAtTheMaximumAndSurvivesOverflow() {
    RateLimiter<String> l = RateLimiters.exponential(ms(5), Duration.ofSeconds(1000));
    Duration last = Duration.ZERO;
    for (int i = 0; i < 100; i++) {
      last = l.when("x");
    }
    assertThat(last).isEqualTo(Duration.ofSeconds(1000));
    assertThat(l.numRequeues("x")).isEqualTo(100);
  }

  @Test
  void bucketAllowsTheBurstThenSpacesByQps() {
    FakeClock clock = new FakeClock();
    RateLimiter<String> l = RateLimiters.bucket(10, 3, clock);
    assertThat(l.when("a")).isZero();
    assertThat(l.when("b")).isZero();
    assertThat(l.when("c")).isZero();
    assertThat(l.when("d")).isEqualTo(ms(100));
    assertThat(l.when("e")).isEqualTo(ms(200));
    clock.step(ms(1000));
    // 10 tokens refill in a second but the bucket holds at most 3; 2 were owed.
    assertThat(l.when("f")).isZero();
    assertThat(l.numRequeues("a")).isZero();
  }

  @Test
  void maxTakesTheLongestDelayAndTheLargestCount() {
    FakeClock clock = new FakeClock();
    RateLimiter<String> l =
        RateLimiters.max(
            RateLimiters.exponential(ms(1), Duration.ofSeconds(1)),
            RateLimiters.fastSlow(ms(3), ms(10), 3));
    assertThat(l.when("one")).isEqualTo(ms(3));
    assertThat(l.when("one")).isEqualTo(ms(3));
    assertThat(l.when("one")).isEqualTo(ms(4));
    assertThat(l.when("one")).isEqualTo(ms(10));
    assertThat(l.when("one")).isEqualTo(ms(16));
    assertThat(l.numRequeues("one")).isEqualTo(5);
    l.forget("one");
    assertThat(l.numRequeues("one")).isZero();
    assertThat(clock.hasWaiters()).isFalse();
  }

  @Test
  void defaultControllerStartsAtFiveMillisecondsPerItem() {
    RateLimiter<String> l = RateLimiters.defaultController(new FakeClock());
    assertThat(l.when("a")).isEqualTo(ms(5));
    assertThat(l.when("a")).isEqualTo(ms(10));
    assertThat(l.when("b")).isEqualTo(ms(5));
  }

  @Test
  void defaultControllerBucketLimitsAStormTo10PerSecondAfter100() {
    FakeClock clock = new FakeClock();
    RateLimiter<Integer> l = RateLimiters.defaultController(clock);
    Duration last = Duration.ZERO;
    for (int i = 0; i < 110; i++) {
      last = l.when(i);
    }
    assertThat(last).isEqualTo(Duration.ofSeconds(1));
  }
}
