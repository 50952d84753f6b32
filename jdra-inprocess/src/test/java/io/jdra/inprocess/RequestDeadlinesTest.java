package io.jdra.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class RequestDeadlinesTest {
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);

  @Test
  void aRequestFailsAtItsDeadlineNotBeforeAndOnlyUnanswered() {
    RequestDeadlines deadlines = new RequestDeadlines(false);
    Request late = new Request();
    Request answered = new Request();
    Request cleared = new Request();
    long start = System.nanoTime();
    deadlines.add(late, HOUR);
    deadlines.add(answered, HOUR);
    deadlines.add(cleared, HOUR).clear();
    answered.result.complete("answer");

    assertThat(deadlines.sweep(start + HOUR / 2)).isEqualTo(1);
    assertThat(late.result).isNotDone();
    assertThat(deadlines.sweep(System.nanoTime() + HOUR)).isZero();
    assertThat(late.result).isCompletedExceptionally();
    assertThat(RequestDeadlines.isExpiry(late.failure)).isTrue();
    assertThat(RequestDeadlines.isExpiry(new TimeoutException())).isFalse();
    assertThat(answered.failure).isNull();
    assertThat(cleared.failure).as("cleared: its answer came").isNull();
  }

  @Test
  void aRequestAddedWhileFailingAnotherIsTimedInTheNextSweep() {
    RequestDeadlines deadlines = new RequestDeadlines(false);
    Request retried = new Request();
    Request first =
        new Request() {
          @Override
          public void expire(TimeoutException timeout) {
            super.expire(timeout);
            deadlines.add(retried, HOUR);
          }
        };
    deadlines.add(first, 0);
    assertThat(deadlines.sweep(System.nanoTime())).isZero();
    assertThat(first.failure).isNotNull();
    assertThat(deadlines.sweep(System.nanoTime())).isEqualTo(1);
    assertThat(retried.result).isNotDone();
  }

  @Test
  void theSweeperWakesForRequestsAddedWhileItIsIdle() throws Exception {
    RequestDeadlines deadlines = new RequestDeadlines(true);
    // One at a time, so that most are added while the sweeper has nothing to time and parks.
    for (int i = 0; i < 10; i++) {
      Request r = new Request();
      deadlines.add(r, TimeUnit.MILLISECONDS.toNanos(1));
      assertThat(r.result).failsWithin(10, TimeUnit.SECONDS);
    }
    // And many at once from several threads.
    List<Request> many = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      List<Request> own = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        own.add(new Request());
      }
      many.addAll(own);
      threads.add(
          Thread.ofPlatform()
              .start(() -> own.forEach(r -> deadlines.add(r, TimeUnit.MILLISECONDS.toNanos(1)))));
    }
    for (Thread t : threads) {
      t.join();
    }
    for (Request r : many) {
      assertThat(r.result).failsWithin(10, TimeUnit.SECONDS);
    }
  }

  private static class Request implements RequestDeadlines.Timed {
    final CompletableFuture<String> result = new CompletableFuture<>();
    volatile TimeoutException failure;

    @Override
    public boolean answered() {
      return result.isDone();
    }

    @Override
    public void expire(TimeoutException timeout) {
      failure = timeout;
      result.completeExceptionally(timeout);
    }
  }
}
