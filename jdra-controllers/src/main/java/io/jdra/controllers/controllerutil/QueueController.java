package io.jdra.controllers.controllerutil;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.workqueue.RateLimiters;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.jdra.runtime.workqueue.WorkQueues;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What every controller keyed by {@code namespace/name} shares (the part of upstream's controllers
 * that is the same in each): a rate-limited queue, the informers it waits for, and {@link #run},
 * the worker loop of {@link QueueWorkers} logging start and stop with the controller's name.
 * Subclasses add handlers that only enqueue, and {@link #syncHandler}.
 */
public abstract class QueueController {
  protected final RateLimitingQueue<String> queue;
  private final String name;
  private final BooleanSupplier synced;

  /**
   * @param name upstream's short name, used in start and stop logs and worker thread names
   * @param queue the controller's queue (a {@code MockQueue} in unit tests)
   * @param synced whether the informers it reads have listed once
   */
  protected QueueController(String name, RateLimitingQueue<String> queue, BooleanSupplier synced) {
    this.name = name;
    this.queue = queue;
    this.synced = synced;
  }

  /** Client-go's default controller queue (exponential 5 ms..1000 s, 10 qps/100 overall). */
  public static RateLimitingQueue<String> defaultQueue(
      Ctx ctx, String queueName, WorkQueueMetrics metrics) {
    return WorkQueues.rateLimiting(
        queueName, RateLimiters.defaultController(ctx.clock()), ctx.clock(), metrics);
  }

  /** Synced once every informer has. */
  public static BooleanSupplier allSynced(SharedIndexInformer<?>... informers) {
    List<SharedIndexInformer<?>> all = List.of(informers);
    return () -> all.stream().allMatch(SharedIndexInformer::hasSynced);
  }

  /** The queue key of a namespaced object. */
  public static String key(HasMetadata o) {
    return o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
  }

  public boolean hasSynced() {
    return synced.getAsBoolean();
  }

  /** Runs {@code workers} workers until {@code ctx} is cancelled (see {@link QueueWorkers}). */
  public void run(Ctx ctx, int workers) throws InterruptedException {
    ctx.logger().info("Starting controller", "controller", name, "workers", workers);
    try {
      QueueWorkers.run(ctx, name + "-worker", queue, workers, synced, this::syncHandler);
    } finally {
      ctx.logger().info("Shutting down controller", "controller", name);
    }
  }

  /** Syncs one key; throws to have it retried with backoff. */
  protected abstract void syncHandler(Ctx ctx, String key);
}
