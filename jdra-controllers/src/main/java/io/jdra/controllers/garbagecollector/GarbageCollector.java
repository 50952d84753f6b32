package io.jdra.controllers.garbagecollector;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.controllers.controllerutil.ApiResources;
import io.jdra.controllers.controllerutil.ApiResources.Gvr;
import io.jdra.controllers.controllerutil.QueueWorkers;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.workqueue.RateLimiters;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.jdra.runtime.workqueue.WorkQueues;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The garbage collector ({@code pkg/controller/garbagecollector}): deletes objects whose owners are
 * all gone, and carries out the propagation policies the API server records as finalizers: {@code
 * foregroundDeletion} (the owner stays until its dependents with {@code blockOwnerDeletion} are
 * gone) and {@code orphan} (dependents lose their reference to the owner, then the owner goes).
 *
 * <p>It watches every resource the API server serves with list, watch and delete (events excepted,
 * as upstream's default ignored resources) through metadata-only informers; the {@link
 * GraphBuilder} turns their events into the owner graph and queues work; workers decide with live
 * reads ({@link AttemptToDelete}). Queues as upstream: {@code garbage_collector_attempt_to_delete}
 * and {@code garbage_collector_attempt_to_orphan}, keyed by UID.
 */
public final class GarbageCollector {
  /** The controller's name in kube-controller-manager. */
  public static final String NAME = "garbage-collector-controller";

  public static final String ATTEMPT_TO_DELETE_QUEUE = "garbage_collector_attempt_to_delete";
  public static final String ATTEMPT_TO_ORPHAN_QUEUE = "garbage_collector_attempt_to_orphan";

  /** Upstream's {@code DefaultIgnoredResources}: events own nothing and are never owned. */
  static final Set<String> IGNORED_RESOURCES = Set.of("events", "events.events.k8s.io");

  private final GraphBuilder graph;
  private final RateLimitingQueue<String> attemptToDelete;
  private final RateLimitingQueue<String> attemptToOrphan;
  private final AttemptToDelete deleter;
  private final BooleanSupplier synced;

  GarbageCollector(
      GraphBuilder graph,
      RateLimitingQueue<String> attemptToDelete,
      RateLimitingQueue<String> attemptToOrphan,
      MetadataClient client,
      BooleanSupplier synced) {
    this.graph = graph;
    this.attemptToDelete = attemptToDelete;
    this.attemptToOrphan = attemptToOrphan;
    this.deleter = new AttemptToDelete(graph, client);
    this.synced = synced;
  }

  /**
   * Discovers the deletable resources and adds a metadata informer and handler for each (call
   * before the factory starts).
   */
  public static GarbageCollector create(
      Ctx ctx, KubernetesClient client, InformerFactory informers, WorkQueueMetrics queueMetrics) {
    ApiResources resources = ApiResources.discover(client);
    resources
        .failedGroups()
        .forEach((gv, err) ->
            ctx.logger().info("Failed to discover resources", "groupVersion", gv, "err", err));
    RateLimitingQueue<String> toDelete = queue(ctx, ATTEMPT_TO_DELETE_QUEUE, queueMetrics);
    RateLimitingQueue<String> toOrphan = queue(ctx, ATTEMPT_TO_ORPHAN_QUEUE, queueMetrics);
    GraphBuilder graph = new GraphBuilder(toDelete, toOrphan);
    List<SharedIndexInformer<GenericKubernetesResource>> monitors = new ArrayList<>();
    for (Gvr gvr : resources.supporting("delete", "list", "watch")) {
      if (IGNORED_RESOURCES.contains(gvr.toString())) {
        continue;
      }
      SharedIndexInformer<GenericKubernetesResource> inf =
          informers.metadataInformer(gvr.context());
      Handlers.add(ctx, inf, handler(graph));
      monitors.add(inf);
    }
    ctx.logger().v(2).info("Garbage collector monitors", "resources", monitors.size());
    return new GarbageCollector(
        graph,
        toDelete,
        toOrphan,
        new MetadataClient(client, resources),
        () -> monitors.stream().allMatch(SharedIndexInformer::hasSynced));
  }

  private static RateLimitingQueue<String> queue(Ctx ctx, String name, WorkQueueMetrics m) {
    return WorkQueues.rateLimiting(
        name, RateLimiters.defaultController(ctx.clock()), ctx.clock(), m);
  }

  /** Handlers only translate and enqueue graph changes. */
  static ResourceEventHandler<GenericKubernetesResource> handler(GraphBuilder graph) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource o) {
        graph.enqueue(new GraphEvent(GraphEvent.Type.ADD, null, ObjectMeta.of(o)));
      }

      @Override
      public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource cur) {
        graph.enqueue(
            new GraphEvent(GraphEvent.Type.UPDATE, ObjectMeta.of(old), ObjectMeta.of(cur)));
      }

      @Override
      public void onDelete(GenericKubernetesResource o, boolean finalStateUnknown) {
        graph.enqueue(new GraphEvent(GraphEvent.Type.DELETE, null, ObjectMeta.of(o)));
      }
    };
  }

  GraphBuilder graph() {
    return graph;
  }

  /**
   * Runs the graph builder and {@code workers} workers on each queue until {@code ctx} is
   * cancelled.
   */
  public void run(Ctx ctx, int workers) throws InterruptedException {
    ctx.logger().info("Starting controller", "controller", "garbagecollector", "workers", workers);
    Thread builder =
        Thread.ofPlatform()
            .name("gc-graph-builder")
            .start(() -> {
              try {
                graph.run(ctx);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    Thread orphaner =
        Thread.ofPlatform()
            .name("gc-attempt-to-orphan")
            .start(
                () -> runQuietly(ctx, "gc-orphan-worker", attemptToOrphan, workers, this::orphan));
    try {
      QueueWorkers.run(ctx, "gc-delete-worker", attemptToDelete, workers, synced, this::delete);
    } finally {
      orphaner.join();
      builder.join();
      ctx.logger().info("Shutting down controller", "controller", "garbagecollector");
    }
  }

  private void runQuietly(
      Ctx ctx,
      String name,
      RateLimitingQueue<String> queue,
      int workers,
      QueueWorkers.SyncHandler handler) {
    try {
      QueueWorkers.run(ctx, name, queue, workers, synced, handler);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  void delete(Ctx ctx, String uid) {
    deleter.attemptToDeleteWorker(ctx, uid);
  }

  void orphan(Ctx ctx, String uid) {
    deleter.attemptToOrphan(ctx, uid);
  }
}
