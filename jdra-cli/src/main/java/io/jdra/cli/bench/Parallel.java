package io.jdra.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;

/** Runs API calls with scheduler_perf's 16 workers (its pod and object creation parallelism). */
final class Parallel {
  static final int WORKERS = 16;

  /**
   * The workers, kept for the process: a steady state creates a batch of 10 pods several times a
   * second, and ten new threads per batch cost the measured phase about a thread start per pod.
   * Daemon threads, so that they never keep the process alive.
   */
  private static final ExecutorService POOL =
      Executors.newFixedThreadPool(
          WORKERS,
          r -> {
            Thread t = new Thread(r, "bench-worker");
            t.setDaemon(true);
            return t;
          });

  private Parallel() {}

  /** Calls {@code task} for 0..count-1 on 16 threads; rethrows the first failure. */
  static void forEach(int count, IntConsumer task) throws Exception {
    List<Future<?>> futures = new ArrayList<>(count);
    try {
      for (int i = 0; i < count; i++) {
        int k = i;
        futures.add(POOL.submit(() -> task.accept(k)));
      }
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof Exception ex) {
            throw ex;
          }
          throw e;
        }
      }
    } finally {
      // On failure or interruption, tasks not yet started do not run (as with the pool that was
      // shut down after each call before).
      futures.forEach(f -> f.cancel(true));
    }
  }
}
