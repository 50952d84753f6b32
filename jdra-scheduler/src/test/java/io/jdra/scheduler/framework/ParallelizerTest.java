package io.jdra.scheduler.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParallelizerTest {

  /** A clock that moves {@code step} nanoseconds each time it is read. */
  private static LongSupplier ticking(long step) {
    AtomicLong now = new AtomicLong();
    return () -> now.addAndGet(step);
  }

  @ParameterizedTest(name = "n={0}, chunk time {1} ns")
  @CsvSource({"0, 0", "1, 0", "7, 0", "500, 0", "1, 100000", "7, 100000", "500, 100000"})
  void everyIndexExactlyOnce(int n, long step) {
    try (Parallelizer par = new Parallelizer(2, ticking(step), Parallelizer.HELP_AFTER_NANOS)) {
      AtomicIntegerArray calls = new AtomicIntegerArray(Math.max(n, 1));
      par.until(
          n,
          i -> {
            calls.incrementAndGet(i);
            return true;
          });
      for (int i = 0; i < n; i++) {
        assertEquals(1, calls.get(i), "index " + i);
      }
    }
  }

  @Test
  void cheapChunksStayOnTheCaller() {
    // Each chunk "takes" 10 us on the clock, below the threshold: no worker is woken.
    try (Parallelizer par = new Parallelizer(2, ticking(10_000), Parallelizer.HELP_AFTER_NANOS)) {
      Set<Thread> threads = ConcurrentHashMap.newKeySet();
      par.until(
          500,
          i -> {
            threads.add(Thread.currentThread());
            return true;
          });
      assertEquals(Set.of(Thread.currentThread()), threads);
      assertEquals(0, par.helpedCalls());
    }
  }

  @Test
  void expensiveChunkCallsTheWorkersIn() throws Exception {
    assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs a second processor");
    Thread caller = Thread.currentThread();
    CountDownLatch workerRan = new CountDownLatch(1);
    // Every chunk takes 60 us on the clock, above the threshold: after its second chunk the
    // caller wakes a worker; a piece of the caller's third chunk waits until the worker ran one.
    try (Parallelizer par = new Parallelizer(2, ticking(60_000), Parallelizer.HELP_AFTER_NANOS)) {
      int chunk = Parallelizer.chunkSize(100);
      AtomicIntegerArray calls = new AtomicIntegerArray(100);
      par.until(
          100,
          i -> {
            calls.incrementAndGet(i);
            if (Thread.currentThread() != caller) {
              workerRan.countDown();
            } else if (i == 2 * chunk) {
              try {
                workerRan.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            }
            return true;
          });
      assertEquals(0, workerRan.getCount(), "a worker ran a piece");
      assertEquals(1, par.helpedCalls());
      for (int i = 0; i < 100; i++) {
        assertEquals(1, calls.get(i), "index " + i);
      }
    }
  }

  @Test
  void oneSlowChunkAloneDoesNotCallTheWorkers() {
    // Chunks alternate between 60 us (a preempted one) and 1 us on the clock.
    long[] steps = {0, 60_000, 0, 1_000};
    AtomicLong reads = new AtomicLong();
    AtomicLong now = new AtomicLong();
    LongSupplier clock = () -> now.addAndGet(steps[(int) (reads.getAndIncrement() % 4)]);
    try (Parallelizer par = new Parallelizer(2, clock, Parallelizer.HELP_AFTER_NANOS)) {
      AtomicIntegerArray calls = new AtomicIntegerArray(500);
      par.until(
          500,
          i -> {
            calls.incrementAndGet(i);
            return true;
          });
      assertEquals(0, par.helpedCalls());
      for (int i = 0; i < 500; i++) {
        assertEquals(1, calls.get(i), "index " + i);
      }
    }
  }

  @Test
  void aPieceReturningFalseStopsTheRest() {
    try (Parallelizer par = new Parallelizer(2, ticking(0), Parallelizer.HELP_AFTER_NANOS)) {
      AtomicIntegerArray calls = new AtomicIntegerArray(500);
      par.until(
          500,
          i -> {
            calls.incrementAndGet(i);
            return i != 30;
          });
      for (int i = 0; i < 500; i++) {
        assertEquals(i <= 30 ? 1 : 0, calls.get(i), "index " + i);
      }
    }
  }

  @Test
  void aFailingPieceIsRethrown() {
    for (long step : new long[] {0, 100_000}) {
      try (Parallelizer par = new Parallelizer(2, ticking(step), Parallelizer.HELP_AFTER_NANOS)) {
        IllegalStateException e =
            assertThrows(
                IllegalStateException.class,
                () ->
                    par.until(
                        500,
                        i -> {
                          if (i == 60) {
                            throw new IllegalStateException("piece 60");
                          }
                          return true;
                        }));
        assertEquals("piece 60", e.getMessage());
      }
    }
  }

  @Test
  void parallelismBelowOneIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> new Parallelizer(0));
  }
}
