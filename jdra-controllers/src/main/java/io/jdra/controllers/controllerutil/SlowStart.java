package io.jdra.controllers.controllerutil;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * Upstream's {@code slowStartBatch}: runs {@code count} calls in batches of 1, 2, 4, ... (doubling
 * while a whole batch succeeds), the calls of one batch in parallel. A batch with a failure ends
 * the run, so a quota or admission error costs one failed call instead of {@code count}.
 */
public final class SlowStart {
  /** Upstream's {@code SlowStartInitialBatchSize}. */
  public static final int INITIAL_BATCH_SIZE = 1;

  private SlowStart() {}

  /** The result: how many calls succeeded, and the first error (null when all succeeded). */
  public record Result(int successes, RuntimeException error) {}

  /**
   * Runs {@code fn} (given the call's index) up to {@code count} times.
   *
   * @return the successes, and the first failure of the batch that stopped the run
   */
  public static Result run(int count, IntFunction<Void> fn) {
    int remaining = count;
    int successes = 0;
    int index = 0;
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int batch = Math.min(remaining, INITIAL_BATCH_SIZE);
          batch > 0;
          batch = Math.min(2 * batch, remaining)) {
        List<Future<Void>> futures = new ArrayList<>();
        for (int i = 0; i < batch; i++) {
          int at = index++;
          futures.add(pool.submit(() -> fn.apply(at)));
        }
        RuntimeException first = null;
        for (Future<Void> f : futures) {
          RuntimeException e = outcome(f);
          if (e == null) {
            successes++;
          } else if (first == null) {
            first = e;
          }
        }
        if (first != null) {
          return new Result(successes, first);
        }
        remaining -= batch;
      }
    }
    return new Result(successes, null);
  }

  private static RuntimeException outcome(Future<Void> f) {
    try {
      f.get();
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new IllegalStateException("interrupted", e);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    }
  }
}
