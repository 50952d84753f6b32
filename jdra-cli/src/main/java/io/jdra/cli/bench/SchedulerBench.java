package io.jdra.cli.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.api.features.FeatureGates;
import io.jdra.apiserver.ApiServerOptions;
import io.jdra.apiserver.EmbeddedApiServer;
import io.jdra.controllers.manager.ControllerManager;
import io.jdra.controllers.manager.ControllerManagerOptions;
import io.jdra.inprocess.InProcessClients;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.client.Clients;
import io.jdra.scheduler.SchedulerOptions;
import io.jdra.scheduler.SchedulerServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one scheduler_perf DRA workload in this process: the embedded API server, the ResourceClaim
 * controller and the scheduler, each with its own unthrottled client (as scheduler_perf's clients),
 * then the workload's ops ({@link OpRunner}): nodes and ResourceSlices created directly (no
 * kubelets, as upstream's createNodes and createResourceDriver), pods from upstream's templates.
 * Ends with the end-state check ({@link Correctness}).
 */
public final class SchedulerBench {
  static final String DRIVER = "test-driver.cdi.k8s.io";

  private final Workload workload;
  private final Duration timeout;
  private final PrintWriter progress;
  private final RunConditions conditions;
  private Transport transport = Transport.IN_PROCESS;

  /** How the components reach the embedded API server. */
  public enum Transport {
    /** In memory ({@link InProcessClients}), as {@code jdra up} runs its components. */
    IN_PROCESS,
    /** fabric8's Vert.x client over loopback HTTP, as a component reaches a remote server. */
    HTTP
  }

  public SchedulerBench(
      Workload workload, Duration timeout, PrintWriter progress, RunConditions conditions) {
    this.workload = workload;
    this.timeout = timeout;
    this.progress = progress;
    this.conditions = conditions;
  }

  /** Uses {@code t} for all three clients (in-process by default). */
  public SchedulerBench withTransport(Transport t) {
    this.transport = t;
    return this;
  }

  /** Runs the workload; the result says whether the final state is correct. */
  public BenchResult run() throws Exception {
    Ctx ctx = Ctx.background("bench");
    long started = System.currentTimeMillis();
    List<String> ignored = new ArrayList<>();
    FeatureGates gates = workload.gates(ignored);
    if (!ignored.isEmpty()) {
      progress.printf(
          "feature gates jdra does not have, ignored: %s%n", String.join(", ", ignored));
    }
    try (EmbeddedApiServer server = EmbeddedApiServer.start(ApiServerOptions.inMemory());
        KubernetesClient setup = newClient(server, transport);
        KubernetesClient controllerClient = newClient(server, transport);
        KubernetesClient schedulerClient = newClient(server, transport)) {
      // As scheduler_perf: one informer factory, the scheduler's, also serves the ResourceClaim
      // controller (util.CreateResourceClaimController) and the workload's pod watch.
      InformerFactory informers = SchedulerServer.newInformerFactory(schedulerClient);
      ControllerManager.Handle cm =
          ControllerManager.start(
              ctx.withName("controller-manager"),
              controllerClient,
              ControllerManagerOptions.defaults()
                  .withControllers(List.of("resourceclaim-controller"))
                  .withFeatureGates(gates),
              informers);
      PrometheusRegistry registry = new PrometheusRegistry();
      SchedulerOptions options =
          SchedulerOptions.defaults().withRegistry(registry).withFeatureGates(gates);
      SchedulerServer.Handle scheduler =
          SchedulerServer.start(ctx.withName("scheduler"), schedulerClient, informers, options);
      try (PodWatch watch = new PodWatch(ctx, informers.informer(Pod.class))) {
        cm.synced().get(timeout.toSeconds(), TimeUnit.SECONDS);
        scheduler.synced().get(timeout.toSeconds(), TimeUnit.SECONDS);
        Measurement measurement = new Measurement(registry, server.metrics(), progress);
        watch.addListener(p -> {
          if (measurement.measures(p.getMetadata().getNamespace())) {
            measurement.tracker().bound(p.getMetadata().getUid(), System.nanoTime());
          }
        });
        Measurement.Result result;
        String failure = null;
        try (OpRunner runner =
            new OpRunner(
                setup,
                new Templates(workload.config()),
                watch,
                measurement,
                timeout,
                progress,
                AllocatorFeatures.from(options.featureGates()))) {
          try {
            result = runner.run(workload.ops());
          } catch (OpRunner.BenchTimeout e) {
            failure = e.getMessage();
            result = measurement.stop();
          }
          Correctness correctness =
              Correctness.check(setup, new ArrayList<>(runner.podNamespaces().keySet()));
          if (failure != null) {
            correctness = correctness.withProblem(failure);
          }
          return new BenchResult(
              workload, result, correctness, Histograms.attempts(registry), started, conditions);
        }
      } finally {
        scheduler.stop();
        cm.stop();
        informers.stop();
        ctx.cancel();
      }
    }
  }

  /**
   * A fabric8 client without client-side rate limits, as scheduler_perf's clients, with the
   * serialization jdra's components share.
   */
  static KubernetesClient newClient(EmbeddedApiServer server, Transport transport) {
    ConfigBuilder b =
        new ConfigBuilder()
            .withMasterUrl(server.url().toString())
            .withNamespace("default")
            .withRequestRetryBackoffLimit(0)
            // Without a token, fabric8 re-reads the environment and kubeconfig before every request
            // once the client is a minute old (TokenRefreshInterceptor); this client needs none.
            .withAutoConfigure(false)
            // A request queued behind a burst of creates on a loaded machine is slow, not lost.
            .withRequestTimeout((int) Duration.ofMinutes(5).toMillis())
            .withMaxConcurrentRequests(1024)
            .withMaxConcurrentRequestsPerHost(1024);
    if (server.token() != null) {
      b.withOauthToken(server.token());
    }
    if (server.caCertificatePem() != null) {
      b.withCaCertData(
          java.util.Base64.getEncoder()
              .encodeToString(server.caCertificatePem().getBytes(StandardCharsets.UTF_8)));
    }
    Config config = b.build();
    // The components' shared serialization, as Clients.create gives them outside the benchmark.
    if (transport == Transport.IN_PROCESS) {
      return InProcessClients.create(server, config, Clients.sharedSerialization());
    }
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withKubernetesSerialization(Clients.sharedSerialization())
        .build();
  }
}
