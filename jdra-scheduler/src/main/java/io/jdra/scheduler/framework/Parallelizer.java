package io.jdra.scheduler.framework;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * Runs a piece of work for indexes 0..n-1 on a fixed pool of workers plus the caller (upstream
 * {@code parallelize.Parallelizer}, default parallelism 16). Work is handed out in chunks through
 * one atomic counter; a piece returning false stops handing out more (the framework stops once it
 * found enough feasible nodes). Thread-safe; {@link #close} stops the workers.
 *
 * <p>Upstream's pieces are goroutines, of which Go runs at most GOMAXPROCS (the number of CPUs) at
 * once, switching between them at little cost. Here they are platform threads, and every one more
 * than there are CPUs only adds wake-ups and context switches to each scheduling cycle (fifteen per
 * pod on two cores), so at most as many run as the JVM has processors.
 */
public final class Parallelizer implements AutoCloseable {
  private final int parallelism;
  private final ExecutorService pool;

  public Parallelizer(int parallelism) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
    }
    this.parallelism = Math.min(parallelism, Runtime.getRuntime().availableProcessors());
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
    int chunk = chunkSize(n);
    int workers = Math.min(parallelism, (n + chunk - 1) / chunk);
    AtomicInteger next = new AtomicInteger();
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    Runnable work =
        () -> {
          while (!stop.get()) {
            int start = next.getAndAdd(chunk);
            if (start >= n) {
              return;
            }
            int end = Math.min(n, start + chunk);
            for (int i = start; i < end; i++) {
              if (!piece.test(i)) {
                stop.set(true);
                return;
              }
            }
          }
        };
    if (workers <= 1 || pool == null) {
      work.run();
      return;
    }
    Future<?>[] futures = new Future<?>[workers - 1];
    for (int w = 0; w < futures.length; w++) {
      futures[w] = pool.submit(work);
    }
    RuntimeException failure = null;
    try {
      work.run();
    } catch (RuntimeException e) {
      stop.set(true);
      failure = e;
    }
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (java.util.concurrent.ExecutionException e) {
        if (failure == null) {
          failure =
              e.getCause() instanceof RuntimeException re ? re : new RuntimeException(e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop.set(true);
      }
    }
    if (failure != null) {
      throw failure;
    }
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
