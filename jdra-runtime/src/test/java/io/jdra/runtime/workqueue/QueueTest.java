package io.jdra.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.runtime.clock.FakeClock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The client-go queue contract, single-threaded where possible. */
class QueueTest {
  private final WorkQueue<String> q = WorkQueues.basic("test", new FakeClock(), null);

  @Test
  void itemsAddedTwiceBeforeGetAreHandedOutOnceInFirstAddOrder() {
    q.add("a");
    q.add("b");
    q.add("a");
    assertThat(q.len()).isEqualTo(2);
    assertThat(q.get()).isEqualTo("a");
    assertThat(q.get()).isEqualTo("b");
    assertThat(q.len()).isZero();
  }

  @Test
  void anItemAddedWhileProcessingIsQueuedAgainOnlyAfterDone() {
    q.add("a");
    assertThat(q.get()).isEqualTo("a");
    q.add("a");
    q.add("a");
    assertThat(q.len()).as("not handed to a second worker while processing").isZero();

    q.done("a");

    assertThat(q.len()).isEqualTo(1);
    assertThat(q.get()).isEqualTo("a");
    q.done("a");
    assertThat(q.len()).isZero();
  }

  @Test
  void doneWithoutReAddForgetsTheItem() {
    q.add("a");
    q.done(q.get());
    q.add("a");
    assertThat(q.len()).isEqualTo(1);
  }

  @Test
  void afterShutDownAddsAreIgnoredAndGetDrainsThenReturnsNull() {
    q.add("a");
    q.shutDown();
    q.add("b");
    assertThat(q.shuttingDown()).isTrue();
    assertThat(q.get()).isEqualTo("a");
    assertThat(q.get()).isNull();
  }

  @Test
  void shutDownWakesBlockedWorkers() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    var got = new java.util.concurrent.CompletableFuture<String>();
    Thread worker =
        Thread.ofPlatform()
            .start(() -> {
              started.countDown();
              got.complete(q.get());
            });
    started.await();
    q.shutDown();
    assertThat(got.get()).isNull();
    worker.join();
  }

  @Test
  void shutDownWithDrainWaitsForItemsInProcessing() throws Exception {
    q.add("a");
    assertThat(q.get()).isEqualTo("a");
    var drained = new java.util.concurrent.CompletableFuture<Void>();
    Thread t =
        Thread.ofPlatform()
            .start(() -> {
              q.shutDownWithDrain();
              drained.complete(null);
            });
    while (!q.shuttingDown()) {
      Thread.onSpinWait();
    }
    assertThat(drained).isNotDone();
    q.done("a");
    drained.get();
    t.join();
  }

  @Test
  void concurrentWorkersNeverProcessOneKeyAtOnceAndLoseNoAdd() throws Exception {
    WorkQueue<Integer> queue = WorkQueues.basic("", new FakeClock(), null);
    Set<Integer> inProcess = ConcurrentHashMap.newKeySet();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger processed = new AtomicInteger();
    Thread[] workers = new Thread[4];
    for (int w = 0; w < workers.length; w++) {
      workers[w] =
          Thread.ofPlatform()
              .start(() -> {
                Integer key;
                while ((key = queue.get()) != null) {
                  if (!inProcess.add(key)) {
                    overlaps.incrementAndGet();
                  }
                  processed.incrementAndGet();
                  inProcess.remove(key);
                  queue.done(key);
                }
              });
    }
    for (int i = 0; i < 20_000; i++) {
      queue.add(i % 7);
    }
    queue.shutDownWithDrain();
    for (Thread w : workers) {
      w.join();
    }
    assertThat(overlaps).hasValue(0);
    assertThat(processed.get()).isBetween(7, 20_000);
  }
}
