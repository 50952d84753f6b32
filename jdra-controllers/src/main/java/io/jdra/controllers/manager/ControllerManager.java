package io.jdra.controllers.manager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.features.Feature;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.leaderelection.LeaderElection;
import io.jdra.runtime.logging.Logger;
import io.jdra.runtime.metrics.MetricsServer;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * jdra's kube-controller-manager: runs the selected controllers on shared informers, optionally
 * only while holding the leader-election Lease, with an optional metrics and health server. It does
 * not own the process: {@link #start} returns a {@link Handle} at once, and stopping it (or
 * cancelling the context) stops the controllers, drains their queues, stops the informers and
 * releases the Lease, leaving no thread. Losing the Lease stops the manager with an error, as
 * upstream exits on "leaderelection lost".
 */
public final class ControllerManager {
  /** How often the wait for the informers' first list is logged. */
  static final Duration SYNC_LOG_INTERVAL = Duration.ofSeconds(10);

  private ControllerManager() {}

  /** A running manager. Thread-safe. */
  public interface Handle {
    /**
     * Completes once this instance leads (always, without leader election), its informers have
     * synced and its controllers run; completes exceptionally when it stops before that.
     */
    CompletableFuture<Void> synced();

    /** Completes when everything has stopped (exceptionally if the manager failed). */
    CompletableFuture<Void> terminated();

    /** The registry with the controllers' and queues' metrics. */
    PrometheusRegistry registry();

    /** The port of the metrics and health server, or -1 without {@code --metrics-bind-address}. */
    int metricsPort();

    /** The controllers this manager runs, by upstream name. */
    List<String> controllers();

    /** Stops (idempotent) and waits until everything has stopped. */
    void stop() throws InterruptedException;
  }

  /** Starts the built-in controllers selected by {@code options}. */
  public static Handle start(Ctx ctx, KubernetesClient client, ControllerManagerOptions options) {
    return start(ctx, client, options, Controllers.builtIn());
  }

  /**
   * Starts the built-in controllers selected by {@code options} on a caller's informer factory
   * instead of the manager's own, as scheduler_perf runs the ResourceClaim controller on the
   * scheduler's informers ({@code util.CreateResourceClaimController}): objects another component
   * already watches are not decoded twice. The manager starts the factory's informers that are not
   * running yet (they stop with the manager); the caller stops the factory.
   */
  public static Handle start(
      Ctx ctx,
      KubernetesClient client,
      ControllerManagerOptions options,
      InformerFactory informers) {
    return start(ctx, client, options, Controllers.builtIn(), informers);
  }

  /**
   * Starts the controllers of {@code registry} selected by {@code options.controllers()} whose
   * feature gates are on.
   *
   * @throws IllegalArgumentException for an unknown controller name or a bad bind address
   * @throws UncheckedIOException when the metrics server cannot listen
   */
  public static Handle start(
      Ctx ctx,
      KubernetesClient client,
      ControllerManagerOptions options,
      List<ControllerDescriptor> registry) {
    return start(ctx, client, options, registry, null);
  }

  private static Handle start(
      Ctx ctx,
      KubernetesClient client,
      ControllerManagerOptions options,
      List<ControllerDescriptor> registry,
      InformerFactory shared) {
    List<ControllerDescriptor> selected = new ArrayList<>();
    for (ControllerDescriptor d : Controllers.select(registry, options.controllers())) {
      if (d.requiredFeatures().stream().allMatch(f -> options.featureGates().enabled(f))) {
        selected.add(d);
      } else {
        ctx.logger()
            .info(
                "Controller is disabled by a feature gate",
                "controller",
                d.name(),
                "requiredFeatures",
                d.requiredFeatures().stream().map(Feature::gateName).toList());
      }
    }
    PrometheusRegistry metrics = new PrometheusRegistry();
    MetricsServer server = startMetricsServer(options, metrics);
    Running running =
        new Running(ctx.withCancel(), client, options, selected, metrics, server, shared);
    running.start();
    return running;
  }

  private static MetricsServer startMetricsServer(
      ControllerManagerOptions options, PrometheusRegistry registry) {
    if (options.metricsBindAddress().isEmpty()) {
      return null;
    }
    try {
      return MetricsServer.start(options.metricsBindAddress(), registry);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "--metrics-bind-address " + options.metricsBindAddress() + ": " + e.getMessage(), e);
    }
  }

  /** One started manager: a thread that runs the controllers for as long as the context lives. */
  private static final class Running implements Handle {
    private final Ctx ctx;
    private final KubernetesClient client;
    private final ControllerManagerOptions options;
    private final List<ControllerDescriptor> descriptors;
    private final PrometheusRegistry registry;
    private final MetricsServer server;
    private final InformerFactory shared;
    private final CompletableFuture<Void> synced = new CompletableFuture<>();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();

    Running(
        Ctx ctx,
        KubernetesClient client,
        ControllerManagerOptions options,
        List<ControllerDescriptor> descriptors,
        PrometheusRegistry registry,
        MetricsServer server,
        InformerFactory shared) {
      this.ctx = ctx;
      this.shared = shared;
      this.client = client;
      this.options = options;
      this.descriptors = descriptors;
      this.registry = registry;
      this.server = server;
      if (server != null) {
        server.addReadyzCheck(
            "controllers",
            () -> synced.isDone() && !synced.isCompletedExceptionally() ? null : "not started");
      }
    }

    void start() {
      Thread.ofPlatform()
          .name("controller-manager")
          .start(() -> {
            try {
              if (options.leaderElect()) {
                runLeaderElected();
              } else {
                runControllers(ctx);
              }
              terminated.complete(null);
            } catch (Throwable t) {
              ctx.logger().error(t, "Controller manager failed");
              terminated.completeExceptionally(t);
            } finally {
              ctx.cancel();
              synced.completeExceptionally(new IllegalStateException("controller manager stopped"));
              if (server != null) {
                server.close();
              }
            }
          });
    }

    /**
     * Campaigns for the Lease and runs the controllers while leading. Leadership lost while not
     * stopping is an error, as upstream's "leaderelection lost".
     */
    private void runLeaderElected() throws Exception {
      List<Throwable> failure = new ArrayList<>();
      boolean[] lost = {false};
      LeaderElection election =
          new LeaderElection(
              client,
              LeaderElection.Config.defaults(options.leaseNamespace(), options.leaseName())
                  .withIdentity(options.identity()));
      election.run(
          ctx,
          leaderCtx -> {
            try {
              runControllers(leaderCtx);
            } catch (Throwable t) {
              synchronized (failure) {
                failure.add(t);
              }
              ctx.cancel();
            }
          },
          () -> {
            synchronized (failure) {
              lost[0] = !ctx.isCancelled();
            }
            ctx.cancel();
          });
      synchronized (failure) {
        if (!failure.isEmpty()) {
          throw new IllegalStateException(failure.get(0).getMessage(), failure.get(0));
        }
        if (lost[0]) {
          throw new IllegalStateException("leaderelection lost");
        }
      }
    }

    /**
     * Creates the controllers (they add indexes and handlers), starts the informers, waits for
     * them, runs every controller on its own thread and waits for all to return.
     */
    private void runControllers(Ctx runCtx) throws Exception {
      Logger log = runCtx.logger();
      // As kube-controller-manager's informer factories (WithTransform(trim)): no controller reads
      // managedFields, and skipping them is a large part of decoding pods and claims.
      InformerFactory informers = shared != null ? shared : new InformerFactory(client, true);
      WorkQueueMetrics queueMetrics = WorkQueueMetrics.create(registry);
      List<Controller> controllers = new ArrayList<>();
      for (ControllerDescriptor d : descriptors) {
        ControllerContext cc =
            new ControllerContext(
                runCtx.withName(d.name()),
                client,
                informers,
                registry,
                queueMetrics,
                options.featureGates(),
                options);
        controllers.add(d.factory().create(cc));
        log.v(3).info("Created controller", "controller", d.name());
      }
      try {
        informers.start(runCtx);
        // As upstream's WaitForCacheSync: no deadline (a slow API server only delays the start),
        // but say what we wait for.
        while (true) {
          long start = System.nanoTime();
          if (informers.waitForCacheSync(runCtx, SYNC_LOG_INTERVAL)) {
            break;
          }
          if (runCtx.isCancelled()) {
            return;
          }
          // Informers retry a failed list themselves (InformerFactory); an early "false" would
          // be one that stopped anyway, and waiting longer would never succeed.
          if (System.nanoTime() - start < SYNC_LOG_INTERVAL.toNanos() / 2) {
            throw new IllegalStateException(
                "an informer failed to start (its first list failed; see the log above)");
          }
          log.info("Waiting for caches to sync");
        }
        runAll(runCtx, controllers);
      } finally {
        if (shared == null) {
          informers.stop();
        }
      }
    }

    private void runAll(Ctx runCtx, List<Controller> controllers) throws InterruptedException {
      List<Thread> threads = new ArrayList<>();
      List<Throwable> failures = new ArrayList<>();
      for (int i = 0; i < controllers.size(); i++) {
        Controller c = controllers.get(i);
        String name = descriptors.get(i).name();
        Ctx cctx = runCtx.withName(name);
        threads.add(
            Thread.ofPlatform().name(name).start(() -> runOne(runCtx, cctx, name, c, failures)));
        runCtx.logger().info("Started controller", "controller", name);
      }
      synced.complete(null);
      for (Thread t : threads) {
        t.join();
      }
      synchronized (failures) {
        if (!failures.isEmpty()) {
          throw new IllegalStateException(
              "controller failed: " + failures.get(0).getMessage(), failures.get(0));
        }
      }
    }

    private static void runOne(
        Ctx runCtx, Ctx cctx, String name, Controller c, List<Throwable> failures) {
      try {
        c.run(cctx);
      } catch (Throwable t) {
        cctx.logger().error(t, "Controller failed", "controller", name);
        synchronized (failures) {
          failures.add(t);
        }
        // One controller that cannot run stops the others, as upstream's start-up errors do.
        runCtx.cancel();
      }
    }

    @Override
    public CompletableFuture<Void> synced() {
      return synced;
    }

    @Override
    public CompletableFuture<Void> terminated() {
      return terminated;
    }

    @Override
    public PrometheusRegistry registry() {
      return registry;
    }

    @Override
    public int metricsPort() {
      return server == null ? -1 : server.port();
    }

    @Override
    public List<String> controllers() {
      return descriptors.stream().map(ControllerDescriptor::name).toList();
    }

    @Override
    public void stop() throws InterruptedException {
      ctx.cancel();
      try {
        terminated.handle((v, e) -> null).get();
      } catch (ExecutionException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
