package io.jdra.kubelet;

import io.fabric8.kubernetes.api.model.Node;
import io.jdra.kubelet.dra.ClaimInfoCache;
import io.jdra.kubelet.dra.ClaimSource;
import io.jdra.kubelet.dra.DraMetrics;
import io.jdra.kubelet.dra.HealthInfoCache;
import io.jdra.kubelet.dra.Manager;
import io.jdra.kubelet.dra.plugin.DraPluginManager;
import io.jdra.kubelet.dra.plugin.HealthStream;
import io.jdra.kubelet.dra.plugin.ResourceSliceWiper;
import io.jdra.kubelet.dra.state.FileCheckpointer;
import io.jdra.kubelet.pluginmanager.PluginWatcher;
import io.jdra.kubelet.sim.CdiRegistry;
import io.jdra.kubelet.sim.NodeRegistration;
import io.jdra.kubelet.sim.PodIps;
import io.jdra.kubelet.sim.PodWorkers;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.record.EventRecorderOptions;
import io.jdra.runtime.workqueue.RateLimiters;
import io.jdra.runtime.workqueue.WorkQueues;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * One simulated node: the kubelet's DRA manager with its plugin watcher, plus a pod runtime that
 * needs no containers. Start as many as wanted in one process; each has its own state and metrics,
 * and they can share the API client, the HTTP server and the gRPC event loops.
 *
 * <p>Startup: the checkpoint is read (a corrupt one fails the start), the Node is registered and
 * its Lease renewed every 10 s, the node's ResourceSlices are wiped, registration sockets are
 * watched, pods bound to the node are synced, and every 60 s claims of vanished pods are
 * unprepared. {@link Handle#ready()} completes when the Node is registered, the present plugins are
 * processed and the pod informer has synced.
 */
public final class Kubelet {
  /** Upstream's node lease renew interval (a quarter of the 40 s lease). */
  static final Duration LEASE_RENEW = Duration.ofSeconds(10);

  /** How often the Node's Ready heartbeat is refreshed. */
  static final Duration STATUS_REPORT = Duration.ofMinutes(1);

  /** A running node. */
  public interface Handle extends AutoCloseable {
    /** Completes when the node is registered and synced; fails if startup failed. */
    CompletableFuture<Void> ready();

    /** The DRA manager (for tests and metrics). */
    Manager manager();

    /** The plugin manager (for tests). */
    DraPluginManager plugins();

    /** The plugin watcher (for tests). */
    PluginWatcher watcher();

    /** Stops everything this node started; claims stay prepared as on a real kubelet restart. */
    void stop();

    @Override
    default void close() {
      stop();
    }
  }

  private Kubelet() {}

  /**
   * Starts a node. Blocking setup (checkpoint, directories) happens here; the rest continues in the
   * background and shows in {@link Handle#ready()}.
   *
   * @throws IOException when the root directory or the checkpoint cannot be used
   */
  public static Handle start(Ctx parent, KubeletOptions o) throws IOException {
    Ctx ctx = parent.withCancel().withValues("node", o.nodeName());
    Files.createDirectories(o.pluginsRegistryDir());
    Files.createDirectories(o.pluginsDir());
    Files.createDirectories(o.cdiRoot());
    ClaimInfoCache cache =
        new ClaimInfoCache(new FileCheckpointer(o.rootDir(), FileCheckpointer.DRA_MANAGER_STATE));
    Clock clock = ctx.clock();
    HealthInfoCache health =
        new HealthInfoCache(clock, o.rootDir().resolve(HealthInfoCache.STATE_FILE), ctx.logger());
    Manager[] managerRef = new Manager[1];
    DraMetrics metrics = DraMetrics.create(o.registry(), () -> claimsInUse(managerRef[0]));
    Executor background = Executors.newVirtualThreadPerTaskExecutor();
    PodWorkers[] workersRef = new PodWorkers[1];
    HealthStream healthStream =
        new HealthStream(
            health,
            (driver, changed) -> {
              Set<String> pods = managerRef[0].podsUsing(driver, changed);
              if (workersRef[0] != null && !pods.isEmpty()) {
                workersRef[0].resync(pods);
              }
            });
    DraPluginManager plugins =
        new DraPluginManager(
            ctx,
            new ResourceSliceWiper(o.client(), o.nodeName(), background),
            o.wipingDelay(),
            metrics,
            healthStream);
    Manager manager =
        new Manager(cache, ClaimSource.apiServer(o.client()), plugins, metrics, health);
    managerRef[0] = manager;
    PluginWatcher watcher =
        new PluginWatcher(o.pluginsRegistryDir(), Map.of(DraPluginManager.PLUGIN_TYPE, plugins));
    var queue =
        WorkQueues.<String>rateLimiting(
            "kubelet-pods-" + o.nodeName(), RateLimiters.defaultController(), clock, null);
    // Upstream's kubelet reports as component "kubelet", host the node.
    EventRecorder recorder =
        EventRecorder.create(o.client(), new EventRecorderOptions("kubelet", o.nodeName()), ctx);
    PodWorkers workers =
        new PodWorkers(
            ctx,
            o.client(),
            o.nodeName(),
            manager,
            new CdiRegistry(o.cdiRoot()),
            new PodIps(o.nodeName()),
            o.nodeIp(),
            recorder,
            queue);
    workersRef[0] = workers;
    AutoCloseable logs = o.server().add(workers::logs);
    CompletableFuture<Void> ready = new CompletableFuture<>();
    Handle handle = new RunningKubelet(ctx, manager, plugins, watcher, ready, logs, recorder);
    background.execute(() -> startUp(ctx, o, plugins, watcher, workers, manager, ready));
    return handle;
  }

  private static void startUp(
      Ctx ctx,
      KubeletOptions o,
      DraPluginManager plugins,
      PluginWatcher watcher,
      PodWorkers workers,
      Manager manager,
      CompletableFuture<Void> ready) {
    try {
      NodeRegistration reg =
          new NodeRegistration(
              o.client(), o.nodeName(), o.capacity(), o.nodeIp(), o.server().port());
      Node node = reg.register(ctx.clock().now());
      reg.renewLease(node, ctx.clock().now());
      every(ctx, LEASE_RENEW, () -> reg.renewLease(node, ctx.clock().now()));
      every(ctx, STATUS_REPORT, () -> reg.updateStatus(ctx.clock().now()));
      plugins.wipeAllAtStart();
      watcher.start(ctx);
      workers.start(o.workers());
      every(
          ctx,
          o.reconcilePeriod(),
          () -> {
            Set<String> active = workers.activePodUids();
            if (active != null) {
              manager.reconcile(ctx, active);
            }
          });
      while (!workers.synced() && !ctx.isCancelled()) {
        Thread.sleep(10); // real time: the informer's first list
      }
      ctx.logger().v(2).info("Kubelet started", "node", o.nodeName());
      ready.complete(null);
    } catch (Exception e) {
      ctx.logger().error(e, "Kubelet start failed", "node", o.nodeName());
      ready.completeExceptionally(e);
    }
  }

  /** Runs {@code task} every {@code period} on the context's clock until cancelled. */
  private static void every(Ctx ctx, Duration period, Runnable task) {
    if (ctx.isCancelled()) {
      return;
    }
    Ctx.Registration[] onCancel = new Ctx.Registration[1];
    Clock.Timer timer =
        ctx.clock()
            .schedule(
                period,
                () ->
                    Thread.ofVirtual()
                        .start(() -> {
                          onCancel[0].close();
                          try {
                            task.run();
                          } catch (RuntimeException e) {
                            ctx.logger()
                                .info("Periodic kubelet task failed", "err", e.getMessage());
                          }
                          every(ctx, period, task);
                        }));
    onCancel[0] = ctx.onCancel(timer::cancel);
  }

  private static Map<String, Integer> claimsInUse(Manager manager) {
    Map<String, Integer> counts = new HashMap<>();
    if (manager == null) {
      return counts;
    }
    var infos = manager.cache().withReadLockUnchecked(c -> c.list());
    counts.put("<any>", infos.size());
    for (var info : infos) {
      for (String driver : info.state().driverState().keySet()) {
        counts.merge(driver, 1, Integer::sum);
      }
    }
    return counts;
  }

  private record RunningKubelet(
      Ctx ctx,
      Manager manager,
      DraPluginManager plugins,
      PluginWatcher watcher,
      CompletableFuture<Void> ready,
      AutoCloseable logs,
      EventRecorder recorder)
      implements Handle {
    @Override
    public void stop() {
      ctx.cancel();
      watcher.close();
      plugins.stop();
      recorder.close();
      try {
        logs.close();
      } catch (Exception e) {
        // removing from a list cannot fail
      }
    }
  }
}
