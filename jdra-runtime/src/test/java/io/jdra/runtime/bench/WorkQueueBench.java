package io.jdra.runtime.bench;

import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.workqueue.RateLimiters;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.jdra.runtime.workqueue.WorkQueues;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The controller hot path on the work queue: one {@code add}, {@code get}, {@code done} cycle per
 * operation (a key handled by a worker), with and without the {@code workqueue_*} metrics, on one
 * thread and with two threads sharing the queue (each its own key range, so no get waits forever).
 *
 * <pre>scripts/bench jdra-runtime -f 1 -wi 3 -i 5 WorkQueueBench</pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx256m"})
public class WorkQueueBench {
  private static final int KEYS_PER_THREAD = 1024;

  @State(Scope.Benchmark)
  public static class Queue {
    @Param({"false", "true"})
    public boolean metrics;

    RateLimitingQueue<String> queue;

    @Setup
    public void setUp() {
      queue =
          WorkQueues.rateLimiting(
              "bench",
              RateLimiters.defaultController(),
              Clock.system(),
              metrics ? WorkQueueMetrics.create(new PrometheusRegistry()) : null);
    }

    @TearDown
    public void tearDown() {
      queue.shutDown();
    }
  }

  @State(Scope.Thread)
  public static class Keys {
    private static final java.util.concurrent.atomic.AtomicInteger THREADS =
        new java.util.concurrent.atomic.AtomicInteger();
    String[] keys;
    int next;

    @Setup
    public void setUp() {
      int t = THREADS.getAndIncrement();
      keys = new String[KEYS_PER_THREAD];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = "claim:ns-" + t + "/claim-" + i;
      }
    }

    String next() {
      String k = keys[next];
      next = (next + 1) % keys.length;
      return k;
    }
  }

  @Benchmark
  public String addGetDone(Queue q, Keys keys) {
    q.queue.add(keys.next());
    String item = q.queue.get();
    q.queue.forget(item);
    q.queue.done(item);
    return item;
  }

  @Benchmark
  @Threads(2)
  public String addGetDoneTwoWorkers(Queue q, Keys keys) {
    return addGetDone(q, keys);
  }

  /** Repeated adds of a key already queued: the dedup path event handlers hit. */
  @Benchmark
  public int addDuplicate(Queue q, Keys keys) {
    q.queue.add("claim:ns/hot");
    return q.queue.len();
  }
}
