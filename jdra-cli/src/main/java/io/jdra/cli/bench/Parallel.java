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

  private Parallel() {}

  /** Calls {@code task} for 0..count-1 on 16 threads; rethrows the first failure. */
  static void forEach(int count, IntConsumer task) throws Exception {
    if (count == 0) {
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(WORKERS, count));
    try {
      List<Future<?>> futures = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        int k = i;
        futures.add(pool.submit(() -> task.accept(k)));
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
      pool.shutdownNow();
    }
  }
}
