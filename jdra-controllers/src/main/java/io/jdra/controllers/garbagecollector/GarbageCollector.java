package io.jdra.controllers.garbagecollector;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.jdra.controllers.controllerutil.ApiResources;
import io.jdra.controllers.controllerutil.ApiResources.Gvr;
import io.jdra.controllers.controllerutil.QueueWorkers;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.RateLimiters;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.jdra.runtime.workqueue.WorkQueues;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The garbage collector ({@code pkg/controller/garbagecollector}): deletes objects whose owners are
 * all gone, and carries out the propagation policies the API server records as finalizers: {@code
 * foregroundDeletion} (the owner stays until its dependents with {@code blockOwnerDeletion} are
 * gone) and {@code orphan} (dependents lose their reference to the owner, then the owner goes).
 *
 * <p>It watches every resource the API server serves with list, watch and delete (events excepted,
 * as upstream's default ignored resources) through metadata-only informers ({@link Monitors}),
 * discovered again every 30 s ({@link ResourceSync}); the {@link GraphBuilder} turns their events
 * into the owner graph and queues work; workers decide with live reads ({@link AttemptToDelete}).
 * Queues as upstream: {@code garbage_collector_attempt_to_delete} and {@code
 * garbage_collector_attempt_to_orphan}, keyed by UID. Metric: {@code
 * garbagecollector_controller_resources_sync_error_total}. Event: {@code OwnerRefInvalidNamespace}
 * (Warning) about a dependent whose owner reference names an object in another namespace.
 */
public final class GarbageCollector {
  /** The controller's name in kube-controller-manager. */
  public static final String NAME = "garbage-collector-controller";

  public static final String ATTEMPT_TO_DELETE_QUEUE = "garbage_collector_attempt_to_delete";
  public static final String ATTEMPT_TO_ORPHAN_QUEUE = "garbage_collector_attempt_to_orphan";

  private final GraphBuilder graph;
  private final RateLimitingQueue<String> attemptToDelete;
  private final RateLimitingQueue<String> attemptToOrphan;
  private final AttemptToDelete deleter;
  private final Monitors monitors;
  private final ResourceSync resourceSync;

  /** Workers hold the read lock per item; a resource sync holds the write lock (upstream's). */
  private final ReadWriteLock workerLock;

  GarbageCollector(
      GraphBuilder graph,
      RateLimitingQueue<String> attemptToDelete,
      RateLimitingQueue<String> attemptToOrphan,
      MetadataClient client,
      Monitors monitors,
      ResourceSync resourceSync,
      ReadWriteLock workerLock,
      AbsentOwnerCache absentOwners) {
    this.graph = graph;
    this.attemptToDelete = attemptToDelete;
    this.attemptToOrphan = attemptToOrphan;
    this.deleter = new AttemptToDelete(graph, client, absentOwners);
    this.monitors = monitors;
    this.resourceSync = resourceSync;
    this.workerLock = workerLock;
  }

  /**
   * Discovers the deletable resources and adds a metadata informer and handler for each (call
   * before the factory starts).
   */
  public static GarbageCollector create(
      Ctx ctx,
      KubernetesClient client,
      InformerFactory informers,
      WorkQueueMetrics queueMetrics,
      PrometheusRegistry registry,
      EventRecorder recorder) {
    return create(
        ctx,
        client,
        () -> ApiResources.discover(client),
        informers,
        queueMetrics,
        registry,
        recorder,
        ResourceSync.PERIOD);
  }

  /** {@link #create} with its discovery and resource sync period given (tests). */
  static GarbageCollector create(
      Ctx ctx,
      KubernetesClient kubeClient,
      Supplier<ApiResources> discovery,
      InformerFactory informers,
      WorkQueueMetrics queueMetrics,
      PrometheusRegistry registry,
      EventRecorder recorder,
      Duration syncPeriod) {
    ApiResources resources = discovery.get();
    resources
        .failedGroups()
        .forEach((gv, err) ->
            ctx.logger().info("Failed to discover resources", "groupVersion", gv, "err", err));
    RateLimitingQueue<String> toDelete = queue(ctx, ATTEMPT_TO_DELETE_QUEUE, queueMetrics);
    RateLimitingQueue<String> toOrphan = queue(ctx, ATTEMPT_TO_ORPHAN_QUEUE, queueMetrics);
    AbsentOwnerCache absentOwners = new AbsentOwnerCache();
    GraphBuilder graph = new GraphBuilder(toDelete, toOrphan, absentOwners, recorder);
    Monitors monitors = new Monitors(informers, graph);
    Map<String, Gvr> deletable = Monitors.deletable(resources);
    monitors.sync(ctx, deletable);
    ctx.logger().v(2).info("Garbage collector monitors", "resources", deletable.size());
    MetadataClient client = new MetadataClient(kubeClient, resources);
    ReadWriteLock workerLock = new ReentrantReadWriteLock();
    ResourceSync sync =
        new ResourceSync(
            discovery,
            monitors,
            client,
            workerLock.writeLock(),
            syncErrorsCounter(registry),
            syncPeriod,
            deletable);
    return new GarbageCollector(
        graph, toDelete, toOrphan, client, monitors, sync, workerLock, absentOwners);
  }

  /** Upstream's {@code GarbageCollectorResourcesSyncError}. */
  static Counter syncErrorsCounter(PrometheusRegistry registry) {
    return Counter.builder()
        .name("garbagecollector_controller_resources_sync_error_total")
        .help("Number of garbage collector resources sync errors")
        .register(registry);
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

  Monitors monitors() {
    return monitors;
  }

  ResourceSync resourceSync() {
    return resourceSync;
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
    Thread resyncer =
        Thread.ofPlatform()
            .name("gc-resource-sync")
            .start(() -> {
              try {
                resourceSync.run(ctx);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    try {
      QueueWorkers.run(
          ctx, "gc-delete-worker", attemptToDelete, workers, monitors::synced, this::delete);
    } finally {
      resyncer.join();
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
      QueueWorkers.run(ctx, name, queue, workers, monitors::synced, handler);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  void delete(Ctx ctx, String uid) {
    workerLock.readLock().lock();
    try {
      deleter.attemptToDeleteWorker(ctx, uid);
    } finally {
      workerLock.readLock().unlock();
    }
  }

  void orphan(Ctx ctx, String uid) {
    workerLock.readLock().lock();
    try {
      deleter.attemptToOrphan(ctx, uid);
    } finally {
      workerLock.readLock().unlock();
    }
  }
}
