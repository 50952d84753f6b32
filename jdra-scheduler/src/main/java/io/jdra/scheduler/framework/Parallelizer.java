package io.jdra.scheduler.framework;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;

/**
 * Runs a piece of work for indexes 0..n-1 on the caller plus a fixed pool of workers (upstream
 * {@code parallelize.Parallelizer}, default parallelism 16). Work is handed out in chunks through
 * one atomic counter; a piece returning false stops handing out more (the framework stops once it
 * found enough feasible nodes). Thread-safe; {@link #close} stops the workers.
 *
 * <p>Upstream's pieces are goroutines, of which Go runs at most GOMAXPROCS (the number of CPUs) at
 * once, switching between them at little cost. Here they are platform threads, and every one more
 * than there are CPUs only adds wake-ups and context switches to each scheduling cycle (fifteen per
 * pod on two cores), so at most as many run as the JVM has processors.
 *
 * <p>Workers are woken only for work worth it: the caller runs chunks itself and calls the workers
 * in once two chunks in a row took at least {@link #HELP_AFTER_NANOS} each (a single slow chunk may
 * only have been preempted). Waking a worker, and the cache lines the caller and the worker then
 * share (the chunk counter, the pieces' results), cost more CPU than a cheap Filter over hundreds
 * of nodes: in {@code jdra bench scheduler}'s steady state, where Filter takes about 0.4 us per
 * node, Filter on two threads took 0.33 ms of CPU per pod against 0.24-0.27 on the caller alone.
 * Expensive pieces (a device search per node) still run in parallel.
 */
public final class Parallelizer implements AutoCloseable {
  /**
   * Two chunks in a row taking this long make the caller wake the workers for the rest. A chunk is
   * about sqrt(n) pieces (22 of 500 nodes): the bench's steady state, at about 0.4 us per node,
   * takes about 9 us a chunk and stays on the caller; a device search of a few microseconds per
   * node goes past it. A chosen threshold, not a measured crossover.
   */
  static final long HELP_AFTER_NANOS = 50_000;

  private final int parallelism;
  private final ExecutorService pool;
  private final LongSupplier nanoTime;
  private final long helpAfterNanos;

  /** Calls of {@link #until} that woke workers (for tests and diagnostics). */
  private final AtomicInteger helpedCalls = new AtomicInteger();

  public Parallelizer(int parallelism) {
    this(parallelism, System::nanoTime, HELP_AFTER_NANOS);
  }

  /** With the clock and threshold deciding when the workers help (tests). */
  Parallelizer(int parallelism, LongSupplier nanoTime, long helpAfterNanos) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
    }
    this.parallelism = Math.min(parallelism, Runtime.getRuntime().availableProcessors());
    this.nanoTime = nanoTime;
    this.helpAfterNanos = helpAfterNanos;
    AtomicInteger n = new AtomicInteger();
    ThreadFactory tf =
        r -> {
          Thread t = new Thread(r, "scheduler-parallelize-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        };
    this.pool =
        this.parallelism > 1 ? Executors.newFixedThreadPool(this.parallelism - 1, tf) : null;
  }

  /**
   * Calls {@code piece} for every index until one returns false; returns when every started piece
   * finished. Exceptions of pieces are rethrown (the first one).
   */
  public void until(int n, IntPredicate piece) {
    if (n == 0) {
      return;
    }
    Run run = new Run(n, chunkSize(n), piece);
    Future<?>[] helpers = null;
    RuntimeException failure = null;
    int slowChunks = 0;
    try {
      while (true) {
        long t0 = nanoTime.getAsLong();
        if (!run.nextChunk()) {
          break;
        }
        // Two slow chunks in a row: one alone may only have been preempted.
        slowChunks = nanoTime.getAsLong() - t0 >= helpAfterNanos ? slowChunks + 1 : 0;
        if (helpers == null && pool != null && slowChunks >= 2) {
          helpers = callHelpers(run);
        }
      }
    } catch (RuntimeException e) {
      run.stop.set(true);
      failure = e;
    }
    failure = awaitHelpers(helpers, run, failure);
    if (failure != null) {
      throw failure;
    }
  }

  /** Workers for the chunks left, at most parallelism - 1 of them. */
  private Future<?>[] callHelpers(Run run) {
    helpedCalls.incrementAndGet();
    int left = run.chunksLeft();
    Future<?>[] helpers = new Future<?>[Math.max(0, Math.min(parallelism - 1, left))];
    for (int w = 0; w < helpers.length; w++) {
      helpers[w] =
          pool.submit(() -> {
            while (run.nextChunk()) {
              // next chunk
            }
          });
    }
    return helpers;
  }

  private static RuntimeException awaitHelpers(
      Future<?>[] helpers, Run run, RuntimeException failure) {
    if (helpers == null) {
      return failure;
    }
    for (Future<?> f : helpers) {
      try {
        f.get();
      } catch (ExecutionException e) {
        if (failure == null) {
          failure =
              e.getCause() instanceof RuntimeException re ? re : new RuntimeException(e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        run.stop.set(true);
      }
    }
    return failure;
  }

  /** One call's chunks, shared by the caller and the workers that help. */
  private static final class Run {
    final int n;
    final int chunk;
    final IntPredicate piece;
    final AtomicInteger next = new AtomicInteger();
    final AtomicBoolean stop = new AtomicBoolean();

    Run(int n, int chunk, IntPredicate piece) {
      this.n = n;
      this.chunk = chunk;
      this.piece = piece;
    }

    /** Runs the next chunk; false when there was none or a piece said stop. */
    boolean nextChunk() {
      if (stop.get()) {
        return false;
      }
      int start = next.getAndAdd(chunk);
      if (start >= n) {
        return false;
      }
      int end = Math.min(n, start + chunk);
      for (int i = start; i < end; i++) {
        if (!piece.test(i)) {
          stop.set(true);
          return false;
        }
      }
      return true;
    }

    int chunksLeft() {
      int done = Math.min(n, next.get());
      return (n - done + chunk - 1) / chunk;
    }
  }

  /** How many calls of {@link #until} so far woke workers. */
  int helpedCalls() {
    return helpedCalls.get();
  }

  /** Upstream's chunk size: about the square root of the work, at least 1. */
  static int chunkSize(int n) {
    return Math.max(1, (int) Math.sqrt(n));
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
