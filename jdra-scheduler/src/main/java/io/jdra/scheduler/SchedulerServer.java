package io.jdra.scheduler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.jdra.api.features.Feature;
import io.jdra.api.versions.DeviceTaintRuleVersions;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Handlers;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.record.EventRecorderOptions;
import io.jdra.scheduler.cache.SchedulerCache;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.ClusterEvent.EventResource;
import io.jdra.scheduler.framework.Framework;
import io.jdra.scheduler.framework.Parallelizer;
import io.jdra.scheduler.metrics.SchedulerMetrics;
import io.jdra.scheduler.plugins.defaultbinder.DefaultBinder;
import io.jdra.scheduler.plugins.dynamicresources.ApiClaimWriter;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResources;
import io.jdra.scheduler.queue.PriorityQueue;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A running scheduler: informers, scheduler cache, DRA manager, scheduling queue and loop, started
 * with {@link #start} and stopped with {@link Handle#stop()} or by cancelling the context. No
 * global state and no {@code System.exit}: several schedulers can run in one process (tests, {@code
 * jdra up}).
 */
public final class SchedulerServer {
  private SchedulerServer() {}

  /** A started scheduler. */
  public interface Handle extends AutoCloseable {
    /** Completes once the informers synced and the loop runs. */
    CompletableFuture<Void> synced();

    /** Stops the loop, the binding workers and the informers; idempotent. */
    void stop();

    @Override
    default void close() {
      stop();
    }

    /** Pending pods per queue (for tests and `jdra up`). */
    io.jdra.scheduler.queue.SchedulingQueue.PendingCounts pending();

    /** The DRA view (for tests). */
    DraManager draManager();
  }

  /**
   * Starts the scheduler with a client (not closed by the scheduler) and informers of its own.
   * Returns at once; {@link Handle#synced()} says when it schedules.
   */
  public static Handle start(Ctx parent, KubernetesClient client, SchedulerOptions options) {
    return start(parent, client, newInformerFactory(client), options, true);
  }

  /**
   * Starts the scheduler on a caller's informer factory, as upstream's {@code scheduler.New} takes
   * one: other components can share its informers (scheduler_perf runs the ResourceClaim controller
   * and its own pod watch on the scheduler's factory, so each object is decoded once). The
   * scheduler starts the factory's informers that are not running yet, and they stop with the
   * scheduler; the caller stops the factory. Make it with {@link #newInformerFactory}.
   */
  public static Handle start(
      Ctx parent, KubernetesClient client, InformerFactory informers, SchedulerOptions options) {
    return start(parent, client, informers, options, false);
  }

  /**
   * kube-scheduler's {@code NewInformerFactory}: only its pod informer drops managedFields
   * (upstream #137473 made that transform take effect); nodes, claims and slices keep them.
   */
  public static InformerFactory newInformerFactory(KubernetesClient client) {
    return new InformerFactory(client).trimManagedFields(Pod.class);
  }

  private static Handle start(
      Ctx parent,
      KubernetesClient client,
      InformerFactory informers,
      SchedulerOptions options,
      boolean ownsInformers) {
    Ctx ctx = parent.withCancel();
    DraManager dra = Profiles.draManager(options.featureGates());
    Parallelizer parallelizer = new Parallelizer(options.parallelism());
    ExtendedResources ext =
        new ExtendedResources(dra, options.featureGates().enabled(Feature.DRA_EXTENDED_RESOURCE));
    // As kube-scheduler: the profile's recorder reports as the scheduler name, instance
    // <name>-<host> (client-go's NewRecorder).
    EventRecorder events =
        EventRecorder.create(
            client,
            new EventRecorderOptions(
                options.schedulerName(), options.schedulerName() + "-" + hostname()),
            ctx);
    Framework framework =
        Profiles.defaultProfile(
            options.schedulerName(),
            options.featureGates(),
            options.dynamicResources(),
            new Profiles.Dra(
                dra,
                new ApiClaimWriter(
                    client, options.featureGates().enabled(Feature.DRA_WORKLOAD_RESOURCE_CLAIMS)),
                System::nanoTime,
                (pod, type, reason, action, note) ->
                    events.eventf(pod, null, type, reason, action, note)),
            new DefaultBinder(client),
            parallelizer,
            ext::classFor);
    PriorityQueue queue = new PriorityQueue(ctx.withName("queue"), framework);
    SchedulerCache cache = new SchedulerCache();
    Map<String, Pod> pods = new ConcurrentHashMap<>();
    SchedulerMetrics metrics = new SchedulerMetrics(options.registry(), queue::pendingCounts);
    framework.setPluginMetrics(metrics::plugin);
    for (var plugin : framework.plugins()) {
      if (plugin instanceof DynamicResources d) {
        d.setMetrics(
            new io.jdra.scheduler.plugins.dynamicresources.DraMetrics() {
              @Override
              public void claimCreate(String status) {
                metrics.claimCreate(status);
              }

              @Override
              public void bindingConditions(String driver, String result, Duration waited) {
                metrics.bindingConditions(driver, result, waited);
              }
            });
      }
    }
    Scheduler scheduler =
        new Scheduler(
            ctx,
            client,
            framework,
            new SchedulingAlgorithm(framework, options.percentageOfNodesToScore()),
            queue,
            cache,
            dra,
            events,
            metrics,
            pods::get);

    Handlers.add(
        ctx,
        informers.informer(Pod.class),
        new PodHandler(options.schedulerName(), queue, cache, pods));
    Handlers.add(
        ctx,
        informers.informer(Node.class),
        handler(
            n -> {
              cache.addNode(n);
              queue.moveAllToActiveOrBackoffQueue(
                  ClusterEvent.of(EventResource.NODE, ClusterEvent.ADD, "NodeAdd"), null, n);
            },
            (o, n) -> {
              cache.updateNode(n);
              int actions = nodeUpdateActions(o, n);
              if (actions != 0) {
                queue.moveAllToActiveOrBackoffQueue(
                    ClusterEvent.of(EventResource.NODE, actions, "NodeUpdate"), o, n);
              }
            },
            cache::removeNode));
    Handlers.add(
        ctx,
        informers.informer(ResourceClaim.class),
        handler(
            c -> {
              dra.claimChanged(c);
              queue.moveAllToActiveOrBackoffQueue(
                  ClusterEvent.of(
                      EventResource.RESOURCE_CLAIM, ClusterEvent.ADD, "ResourceClaimAdd"),
                  null,
                  c);
            },
            (o, c) -> {
              dra.claimChanged(c);
              queue.moveAllToActiveOrBackoffQueue(
                  ClusterEvent.of(
                      EventResource.RESOURCE_CLAIM,
                      ClusterEvent.UPDATE_OTHER,
                      "ResourceClaimUpdate"),
                  o,
                  c);
            },
            c -> {
              dra.claimDeleted(c);
              queue.moveAllToActiveOrBackoffQueue(
                  ClusterEvent.of(
                      EventResource.RESOURCE_CLAIM, ClusterEvent.DELETE, "ResourceClaimDelete"),
                  c,
                  null);
            }));
    Handlers.add(
        ctx,
        informers.informer(ResourceSlice.class),
        handler(
            s -> {
              dra.sliceChanged(s);
              queue.moveAllToActiveOrBackoffQueue(
                  ClusterEvent.of(
                      EventResource.RESOURCE_SLICE, ClusterEvent.ADD, "ResourceSliceAdd"),
                  null,
                  s);
            },
            (o, s) -> {
              dra.sliceChanged(s);
              queue.moveAllToActiveOrBackoffQueue(
                  ClusterEvent.of(
                      EventResource.RESOURCE_SLICE,
                      ClusterEvent.UPDATE_OTHER,
                      "ResourceSliceUpdate"),
                  o,
                  s);
            },
            dra::sliceDeleted));
    Handlers.add(
        ctx,
        informers.informer(DeviceClass.class),
        handler(
            c -> {
              dra.classChanged(c);
              ext.classChanged();
              queue.moveAllToActiveOrBackoffQueue(
                  ClusterEvent.of(EventResource.DEVICE_CLASS, ClusterEvent.ADD, "DeviceClassAdd"),
                  null,
                  c);
            },
            (o, c) -> {
              dra.classChanged(c);
              ext.classChanged();
              queue.moveAllToActiveOrBackoffQueue(
                  ClusterEvent.of(
                      EventResource.DEVICE_CLASS, ClusterEvent.UPDATE_OTHER, "DeviceClassUpdate"),
                  o,
                  c);
            },
            c -> {
              dra.classDeleted(c);
              ext.classChanged();
            }));
    if (options.featureGates().enabled(Feature.DRA_DEVICE_TAINT_RULES)) {
      Handlers.add(
          ctx,
          // Kubernetes 1.36 serves DeviceTaintRule as v1beta2 (and v1alpha3), not v1.
          informers.informer(
              io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRule.class),
          handler(
              r -> {
                dra.taintRuleChanged(DeviceTaintRuleVersions.toV1(r));
                queue.moveAllToActiveOrBackoffQueue(
                    ClusterEvent.of(
                        EventResource.DEVICE_TAINT_RULE, ClusterEvent.ADD, "DeviceTaintRuleAdd"),
                    null,
                    r);
              },
              (o, r) -> {
                dra.taintRuleChanged(DeviceTaintRuleVersions.toV1(r));
                queue.moveAllToActiveOrBackoffQueue(
                    ClusterEvent.of(
                        EventResource.DEVICE_TAINT_RULE,
                        ClusterEvent.UPDATE_OTHER,
                        "DeviceTaintRuleUpdate"),
                    o,
                    r);
              },
              r -> {
                dra.taintRuleDeleted(DeviceTaintRuleVersions.toV1(r));
                queue.moveAllToActiveOrBackoffQueue(
                    ClusterEvent.of(
                        EventResource.DEVICE_TAINT_RULE,
                        ClusterEvent.DELETE,
                        "DeviceTaintRuleDelete"),
                    r,
                    null);
              }));
    }

    CompletableFuture<Void> synced = new CompletableFuture<>();
    Thread loop =
        new Thread(
            () -> {
              informers.start(ctx);
              if (!informers.waitForCacheSync(ctx, Duration.ofMinutes(5))) {
                ctx.logger().error(null, "Informers did not sync, the scheduler does not run");
                synced.completeExceptionally(
                    new IllegalStateException(
                        "informers did not sync (an initial list failed or took longer than 5 minutes)"));
                return;
              }
              queue.run();
              synced.complete(null);
              ctx.logger().info("Scheduler started", "schedulerName", options.schedulerName());
              scheduler.run();
            },
            "scheduler-loop-" + options.schedulerName());
    loop.setDaemon(true);
    loop.start();

    Runnable stop =
        () -> {
          ctx.cancel();
          scheduler.stop();
          if (ownsInformers) {
            informers.stop();
          }
          events.close();
          parallelizer.close();
          try {
            loop.join(5000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    ctx.onCancel(queue::close);
    return new Handle() {
      private final java.util.concurrent.atomic.AtomicBoolean stopped =
          new java.util.concurrent.atomic.AtomicBoolean();

      @Override
      public CompletableFuture<Void> synced() {
        return synced;
      }

      @Override
      public void stop() {
        if (stopped.compareAndSet(false, true)) {
          stop.run();
        }
      }

      @Override
      public io.jdra.scheduler.queue.SchedulingQueue.PendingCounts pending() {
        return queue.pendingCounts();
      }

      @Override
      public DraManager draManager() {
        return dra;
      }
    };
  }

  /** Which parts of a node changed, as upstream's node update events. */
  /** The host name, as client-go's NewRecorder puts it into reportingInstance. */
  private static String hostname() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "localhost";
    }
  }

  static int nodeUpdateActions(Node o, Node n) {
    int a = 0;
    if (!Objects.equals(
        o.getStatus() == null ? null : o.getStatus().getAllocatable(),
        n.getStatus() == null ? null : n.getStatus().getAllocatable())) {
      a |= ClusterEvent.UPDATE_NODE_ALLOCATABLE;
    }
    if (!Objects.equals(o.getMetadata().getLabels(), n.getMetadata().getLabels())) {
      a |= ClusterEvent.UPDATE_NODE_LABEL;
    }
    if (!Objects.equals(
            o.getSpec() == null ? null : o.getSpec().getTaints(),
            n.getSpec() == null ? null : n.getSpec().getTaints())
        || !Objects.equals(
            o.getSpec() == null ? null : o.getSpec().getUnschedulable(),
            n.getSpec() == null ? null : n.getSpec().getUnschedulable())) {
      a |= ClusterEvent.UPDATE_NODE_TAINT;
    }
    if (!Objects.equals(o.getMetadata().getAnnotations(), n.getMetadata().getAnnotations())) {
      a |= ClusterEvent.UPDATE_NODE_ANNOTATION;
    }
    return a;
  }

  static <T> ResourceEventHandler<T> handler(
      Consumer<T> add, java.util.function.BiConsumer<T, T> update, Consumer<T> delete) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        add.accept(obj);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        update.accept(oldObj, newObj);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        delete.accept(obj);
      }
    };
  }

  /** Pods: pending ones of this scheduler go to the queue, assigned ones to the cache. */
  static final class PodHandler implements ResourceEventHandler<Pod> {
    private final String schedulerName;
    private final PriorityQueue queue;
    private final SchedulerCache cache;
    private final Map<String, Pod> pods;

    PodHandler(
        String schedulerName, PriorityQueue queue, SchedulerCache cache, Map<String, Pod> pods) {
      this.schedulerName = schedulerName;
      this.queue = queue;
      this.cache = cache;
      this.pods = pods;
    }

    private boolean responsible(Pod p) {
      String n = p.getSpec().getSchedulerName();
      return schedulerName.equals(
          n == null || n.isEmpty() ? SchedulerOptions.DEFAULT_SCHEDULER_NAME : n);
    }

    private static boolean assigned(Pod p) {
      return Scheduler.isBound(p);
    }

    @Override
    public void onAdd(Pod p) {
      pods.put(p.getMetadata().getUid(), p);
      if (assigned(p)) {
        if (!SchedulerCache.isTerminal(p)) {
          cache.addPod(p);
          queue.moveAllToActiveOrBackoffQueue(
              ClusterEvent.of(EventResource.ASSIGNED_POD, ClusterEvent.ADD, "AssignedPodAdd"),
              null,
              p);
        }
      } else if (responsible(p)
          && !SchedulerCache.isTerminal(p)
          && p.getMetadata().getDeletionTimestamp() == null) {
        queue.add(p);
      }
    }

    @Override
    public void onUpdate(Pod o, Pod p) {
      pods.put(p.getMetadata().getUid(), p);
      if (assigned(p)) {
        if (!assigned(o)) {
          queue.delete(p);
        }
        if (SchedulerCache.isTerminal(p)) {
          cache.removePod(p);
          queue.moveAllToActiveOrBackoffQueue(
              ClusterEvent.of(EventResource.ASSIGNED_POD, ClusterEvent.DELETE, "AssignedPodDelete"),
              o,
              null);
        } else {
          cache.updatePod(p);
        }
      } else if (responsible(p)) {
        if (SchedulerCache.isTerminal(p) || p.getMetadata().getDeletionTimestamp() != null) {
          queue.delete(p);
        } else {
          queue.update(o, p);
        }
      }
    }

    @Override
    public void onDelete(Pod p, boolean unknown) {
      pods.remove(p.getMetadata().getUid());
      if (assigned(p)) {
        cache.removePod(p);
        queue.moveAllToActiveOrBackoffQueue(
            ClusterEvent.of(EventResource.ASSIGNED_POD, ClusterEvent.DELETE, "AssignedPodDelete"),
            p,
            null);
      } else {
        queue.delete(p);
        cache.removePod(p);
      }
    }
  }
}
