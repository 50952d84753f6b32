package io.jdra.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.ClientOptions;
import io.jdra.runtime.client.Clients;
import io.jdra.runtime.leaderelection.LeaderElection;
import io.jdra.runtime.metrics.MetricsServer;
import io.jdra.scheduler.SchedulerConfig;
import io.jdra.scheduler.SchedulerOptions;
import io.jdra.scheduler.SchedulerServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code jdra scheduler}: the DRA-aware scheduler against any API server. */
@Command(
    name = "scheduler",
    mixinStandardHelpOptions = true,
    description = {
      "Run the DRA-aware pod scheduler (kube-scheduler with the DynamicResources plugin).",
      "Schedules pending pods whose spec.schedulerName is --scheduler-name; on a real cluster",
      "it runs next to kube-scheduler for pods that name it.",
      "Plugins: PrioritySort, SchedulingGates, NodeUnschedulable, NodeName, TaintToleration,",
      "NodeAffinity, NodePorts, NodeResourcesFit (LeastAllocated), DynamicResources,",
      "DefaultBinder. Not implemented: preemption, inter-pod affinity, topology spread,",
      "volume plugins, extenders."
    })
final class SchedulerCommand implements java.util.concurrent.Callable<Integer> {
  @ParentCommand JdraCommand parent;

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description = "Path to a kubeconfig (default: KUBECONFIG, ~/.kube/config, in-cluster).")
  Path kubeconfig;

  @Option(
      names = "--scheduler-name",
      paramLabel = "NAME",
      description =
          "Schedule pods with this spec.schedulerName (default: default-scheduler, or the config file's profile).")
  String schedulerName;

  @Option(
      names = "--leader-elect",
      description =
          "Run only while holding the lease kube-system/<scheduler-name> (upstream timings 15s/10s/2s).")
  Boolean leaderElect;

  @Option(
      names = "--metrics-bind-address",
      paramLabel = "ADDR",
      description =
          "Serve /metrics, /healthz, /readyz, /livez here (host:port or :port); off when unset.")
  String metricsBindAddress;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1): percentageOfNodesToScore, parallelism, leaderElection.leaderElect, one profile's schedulerName and DynamicResourcesArgs (filterTimeout, bindingTimeout).")
  Path config;

  @Option(
      names = "--kube-api-qps",
      paramLabel = "QPS",
      defaultValue = "50",
      description =
          "Client-side QPS limit towards the API server (default: ${DEFAULT-VALUE}; negative disables).")
  float qps;

  @Option(
      names = "--kube-api-burst",
      paramLabel = "N",
      defaultValue = "100",
      description = "Client-side burst (default: ${DEFAULT-VALUE}).")
  int burst;

  @Override
  public Integer call() throws InterruptedException {
    SchedulerOptions options =
        SchedulerOptions.defaults().withFeatureGates(parent.global.featureGates());
    boolean leader = false;
    try {
      if (config != null) {
        SchedulerConfig c = SchedulerConfig.read(config);
        options = c.applyTo(options);
        leader = Boolean.TRUE.equals(c.leaderElect());
      }
      if (schedulerName != null) {
        options = options.withSchedulerName(schedulerName);
      }
      if (leaderElect != null) {
        leader = leaderElect;
      }
    } catch (IllegalArgumentException e) {
      throw new UserException("--config: " + e.getMessage());
    }
    KubernetesClient client;
    try {
      client =
          Clients.create(
              new ClientOptions(
                  kubeconfig == null ? null : kubeconfig.toString(), qps, burst, "kube-scheduler"));
    } catch (RuntimeException e) {
      throw new UserException("create client: " + e.getMessage(), e);
    }
    Ctx ctx = Ctx.background("scheduler");
    MetricsServer metrics = null;
    AtomicReference<SchedulerServer.Handle> running = new AtomicReference<>();
    if (metricsBindAddress != null && !metricsBindAddress.isEmpty()) {
      try {
        metrics = MetricsServer.start(metricsBindAddress, options.registry());
      } catch (IOException | IllegalArgumentException e) {
        throw new UserException("--metrics-bind-address: " + e.getMessage(), e);
      }
      metrics.addReadyzCheck(
          "sched-handler-sync",
          () -> {
            SchedulerServer.Handle h = running.get();
            return h != null && h.synced().isDone() && !h.synced().isCompletedExceptionally()
                ? null
                : "not synced";
          });
    }
    CountDownLatch done = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    MetricsServer m = metrics;
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> {
              ctx.cancel();
              SchedulerServer.Handle h = running.get();
              if (h != null) {
                h.stop();
              }
              if (m != null) {
                m.close();
              }
              client.close();
              done.countDown();
            }));
    SchedulerOptions opts = options;
    if (leader) {
      LeaderElection le =
          new LeaderElection(
              client, LeaderElection.Config.defaults("kube-system", opts.schedulerName()));
      Thread t =
          new Thread(
              () ->
                  le.run(
                      ctx,
                      leaderCtx -> {
                        SchedulerServer.Handle h = SchedulerServer.start(leaderCtx, client, opts);
                        running.set(h);
                        try {
                          leaderCtx.done().get();
                        } catch (Exception e) {
                          Thread.currentThread().interrupt();
                        }
                        h.stop();
                      },
                      () -> ctx.logger().info("Leader election lost")),
              "leader-election");
      t.setDaemon(true);
      t.start();
    } else {
      SchedulerServer.Handle h = SchedulerServer.start(ctx, client, opts);
      running.set(h);
      h.synced()
          .whenComplete((v, err) -> {
            if (err != null) {
              failure.set(err);
              done.countDown();
            }
          });
    }
    done.await();
    if (failure.get() != null) {
      // A scheduler whose caches never filled must not sit there silently: exit, be restarted.
      throw new UserException(
          "scheduler did not start: " + failure.get().getMessage(), failure.get());
    }
    return 0;
  }
}
