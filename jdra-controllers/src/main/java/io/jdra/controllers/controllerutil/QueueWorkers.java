package io.jdra.controllers.controllerutil;

import io.jdra.runtime.Ctx;
import io.jdra.runtime.logging.HandleError;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The worker loop every workload controller runs (upstream's {@code Run}, {@code worker} and {@code
 * processNextWorkItem}): wait for the informers, then {@code workers} threads take keys from the
 * queue; a key whose sync fails is re-added rate-limited, one that succeeds has its backoff
 * forgotten. On cancellation the queue drains and the workers exit before {@link #run} returns.
 */
public final class QueueWorkers {
  private QueueWorkers() {}

  /** Syncs one key ({@code ns/name}); throws to have it retried with backoff. */
  @FunctionalInterface
  public interface SyncHandler {
    void sync(Ctx ctx, String key);
  }

  public static void run(
      Ctx ctx,
      String threadName,
      RateLimitingQueue<String> queue,
      int workers,
      BooleanSupplier synced,
      SyncHandler handler)
      throws InterruptedException {
    try {
      while (!synced.getAsBoolean()) {
        if (!ctx.sleep(Duration.ofMillis(50))) {
          return;
        }
      }
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < workers; i++) {
        threads.add(
            Thread.ofPlatform()
                .name(threadName + "-" + i)
                .start(() -> {
                  while (processNextWorkItem(ctx, queue, handler)) {
                    // next key
                  }
                }));
      }
      ctx.done().handle((v, e) -> null).join();
      queue.shutDownWithDrain();
      for (Thread t : threads) {
        t.join();
      }
    } finally {
      queue.shutDown();
    }
  }

  /** One key: false when the queue shut down. */
  /**
   * Thrown by a sync handler to have its key looked at again later (rate-limited) without it being
   * an error, e.g. for an object an informer has not shown yet.
   */
  public static final class Requeue extends RuntimeException {
    public Requeue() {
      super("requeue", null, false, false);
    }
  }

  public static boolean processNextWorkItem(
      Ctx ctx, RateLimitingQueue<String> queue, SyncHandler handler) {
    String key = queue.get();
    if (key == null) {
      return false;
    }
    try {
      handler.sync(ctx, key);
      queue.forget(key);
    } catch (Requeue e) {
      queue.addRateLimited(key);
    } catch (RuntimeException e) {
      if (ApiErrors.isConflict(e)) {
        // A write based on a cache that lagged: expected now and then, retried at once-ish.
        ctx.logger().v(2).info("Error syncing, will retry", "key", key, "err", e.getMessage());
      } else {
        HandleError.handle(ctx, e, "Sync failed", "key", key);
      }
      queue.addRateLimited(key);
    } finally {
      queue.done(key);
    }
    return true;
  }

  /** Splits {@code ns/name}. */
  public static String[] splitKey(String key) {
    int slash = key.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("unexpected key format: \"" + key + "\"");
    }
    return new String[] {key.substring(0, slash), key.substring(slash + 1)};
  }
}
