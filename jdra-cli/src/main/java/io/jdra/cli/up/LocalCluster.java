package io.jdra.cli.up;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.apiserver.ApiServerOptions;
import io.jdra.apiserver.EmbeddedApiServer;
import io.jdra.controllers.manager.ControllerManager;
import io.jdra.controllers.manager.ControllerManagerOptions;
import io.jdra.controllers.manager.LifecycleOptions;
import io.jdra.controllers.namespace.NamespaceController;
import io.jdra.exampledriver.ExampleDriver;
import io.jdra.exampledriver.Flags;
import io.jdra.exampledriver.controller.ExampleController;
import io.jdra.inprocess.InProcessHttpClientFactory;
import io.jdra.kubelet.Kubelet;
import io.jdra.kubelet.KubeletOptions;
import io.jdra.kubelet.sim.KubeletServer;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.ClientOptions;
import io.jdra.runtime.client.Clients;
import io.jdra.runtime.metrics.CombinedMetrics;
import io.jdra.runtime.metrics.MetricsServer;
import io.jdra.scheduler.SchedulerOptions;
import io.jdra.scheduler.SchedulerServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The whole DRA cluster of {@code jdra up} in this process: the API server, then each component
 * with its own client, as in a real cluster. Components are stopped in reverse start order. Not
 * thread-safe: one thread starts and closes it.
 */
public final class LocalCluster implements AutoCloseable {
  /** The layout of the data directory; another value means another jdra made it. */
  static final String DATA_LAYOUT = "jdra-up/1";

  private static final String LAYOUT_FILE = "jdra-up-layout";

  /** controller-runtime's client defaults, which upstream's dra-example-controller keeps. */
  private static final float EXAMPLE_CONTROLLER_QPS = 20;

  private static final int EXAMPLE_CONTROLLER_BURST = 30;

  private final Ctx ctx;
  private final UpOptions options;
  private final Deque<Stoppable> started = new ArrayDeque<>();
  private EmbeddedApiServer server;
  private Identities identities;
  private KubernetesClient admin;
  private final CombinedMetrics metrics = new CombinedMetrics();
  private MetricsServer metricsServer;

  /** Something that was started and must be stopped, named for messages. */
  private record Stoppable(String name, AutoCloseable stop) {}

  private final DriverFlags.Parser driverFlags;

  private LocalCluster(Ctx ctx, UpOptions options, DriverFlags.Parser driverFlags) {
    this.ctx = ctx;
    this.options = options;
    this.driverFlags = driverFlags;
  }

  /**
   * Starts everything and returns once every component started; readiness (nodes Ready, slices
   * published) is {@link Readiness}'s. On failure stops what was started and rethrows.
   */
  public static LocalCluster start(Ctx ctx, UpOptions options, DriverFlags.Parser driverFlags) {
    LocalCluster c = new LocalCluster(ctx, options, driverFlags);
    try {
      c.startAll();
      return c;
    } catch (RuntimeException | Error e) {
      c.close();
      throw e;
    }
  }

  private void startAll() {
    prepareDataDir();
    identities = Identities.forCluster(options.nodes());
    server = startApiServer();
    started.push(new Stoppable("apiserver", server));
    writeKubeconfigs();
    admin = newClient("admin", -1, 0, kubeconfig());
    metrics.add(server.metrics(), Labels.EMPTY);
    metricsServer = startMetricsServer();
    installDeviceClasses();
    // The components start side by side (each waits for its own informers), as in a real
    // cluster where they are separate processes; what they wait for overlaps.
    CompletableFuture<Void> controllerManager = startControllerManager();
    CompletableFuture<Void> scheduler = startScheduler();
    CompletableFuture<Void> exampleControllers = startExampleControllers();
    startNodes();
    awaitSynced("controller-manager", controllerManager);
    awaitSynced("scheduler", scheduler);
    awaitSynced("dra-example-controller", exampleControllers);
  }

  private void prepareDataDir() {
    Path dir = options.dataDir();
    Path layout = dir.resolve(LAYOUT_FILE);
    try {
      Files.createDirectories(dir);
      if (Files.exists(layout)) {
        String found = Files.readString(layout, StandardCharsets.UTF_8).strip();
        if (!found.equals(DATA_LAYOUT)) {
          throw new IllegalStateException(
              "data dir "
                  + dir
                  + " was written by another jdra version (layout \""
                  + found
                  + "\", this one uses \""
                  + DATA_LAYOUT
                  + "\"): pass another --data-dir, or remove that one to start afresh");
        }
      } else {
        Files.writeString(layout, DATA_LAYOUT + "\n", StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("prepare data dir " + dir + ": " + e.getMessage(), e);
    }
  }

  private EmbeddedApiServer startApiServer() {
    ApiServerOptions o =
        ApiServerOptions.inMemory()
            .withPort(options.port())
            .withDataDir(options.inMemory() ? null : options.dataDir())
            .withSecurity(true)
            .withKubeconfig(kubeconfig())
            .withFeatureGates(options.featureGates())
            .withTokenUsers(identities.tokenUsers());
    try {
      return EmbeddedApiServer.start(o);
    } catch (RuntimeException e) {
      throw new IllegalStateException(apiServerFailure(e), e);
    }
  }

  private String apiServerFailure(RuntimeException e) {
    String msg = String.valueOf(e.getMessage());
    if (msg.contains("Address already in use") || msg.contains("BindException")) {
      return "start API server: port "
          + options.port()
          + " is in use; stop what listens there or pass --port";
    }
    return "start API server: " + msg;
  }

  /**
   * One endpoint for the metrics of every component, each kept in its own registry as if it were
   * its own process; a kubelet's series carry {@code node}.
   */
  private MetricsServer startMetricsServer() {
    MetricsServer m;
    try {
      m = MetricsServer.start(options.metricsBindAddress(), metrics);
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "--metrics-bind-address " + options.metricsBindAddress() + ": " + e.getMessage(), e);
    }
    started.push(new Stoppable("metrics endpoint", m));
    return m;
  }

  /** Where the metrics of every component are served. */
  public String metricsUrl() {
    return "http://"
        + hostOf(options.metricsBindAddress())
        + ":"
        + metricsServer.port()
        + "/metrics";
  }

  private static String hostOf(String bindAddress) {
    String host = bindAddress.substring(0, bindAddress.lastIndexOf(':'));
    return host.isEmpty() || host.equals("0.0.0.0") ? "127.0.0.1" : host;
  }

  /** The kubeconfig {@code jdra up} writes for the user (and its own components read). */
  public Path kubeconfig() {
    return options.dataDir().resolve("kubeconfig");
  }

  /**
   * Writes each component's kubeconfig with its own token, where kubeadm keeps them: {@code
   * DIR/controller-manager.conf}, {@code DIR/scheduler.conf}, {@code
   * DIR/dra-example-controller.conf}, and per node {@code DIR/nodes/NODE/kubelet.conf} and {@code
   * DIR/nodes/NODE/dra-example-driver.conf}. Tokens are new at every start, so a file from a
   * previous run stops working.
   */
  private void writeKubeconfigs() {
    try {
      for (Identities.Identity id : identities.all()) {
        server.writeKubeconfig(kubeconfigOf(id), id.token(), id.user().name());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("write the components' kubeconfigs: " + e.getMessage(), e);
    }
  }

  /** Where the kubeconfig of a component's identity is written. */
  Path kubeconfigOf(Identities.Identity id) {
    return switch (id.component()) {
      case CONTROLLER_MANAGER -> options.dataDir().resolve("controller-manager.conf");
      case SCHEDULER -> options.dataDir().resolve("scheduler.conf");
      case EXAMPLE_CONTROLLER -> options.dataDir().resolve("dra-example-controller.conf");
      case KUBELET -> options.nodeRoot(id.node()).resolve("kubelet.conf");
      case DRIVER -> options.nodeRoot(id.node()).resolve("dra-example-driver.conf");
    };
  }

  /**
   * A client of its own for a component, with its own identity (kubeconfig), named in its user
   * agent and rate-limited with the component's upstream QPS and burst, as in a real cluster.
   */
  KubernetesClient newClient(String component, float qps, int burst, Path kubeconfig) {
    // In memory to the API server of this process, with the identity, user agent and rate limit
    // of the kubeconfig and options, as over HTTPS (which kubectl and other processes use).
    KubernetesClient c =
        Clients.create(
            ClientOptions.forComponent(userAgent(component), qps, burst)
                .withKubeconfig(kubeconfig.toString()),
            new InProcessHttpClientFactory(server.inProcess()));
    started.push(new Stoppable("client " + component, c));
    return c;
  }

  /**
   * The User-Agent of a component's client: upstream's binary names (the API server names the field
   * manager of a write that gives none after the agent's product, so managedFields show
   * kube-scheduler, kube-controller-manager and kubelet as on a real cluster), jdra's for the rest.
   */
  static String userAgent(String component) {
    return switch (component) {
      case "controller-manager" -> "kube-controller-manager";
      case "scheduler" -> "kube-scheduler";
      default -> component.startsWith("kubelet/") ? component : "jdra-" + component;
    };
  }

  private void installDeviceClasses() {
    for (String profile : options.profiles()) {
      DeviceClass dc = DeviceClasses.forProfile(profile, options.extendedResourceName());
      admin.resource(dc).serverSideApply();
      ctx.logger().v(2).info("Installed DeviceClass", "deviceClass", dc.getMetadata().getName());
    }
  }

  /**
   * One API server, and simulated kubelets that end pods within milliseconds: no grace period for
   * other API servers to see a namespace's deletion, and content checked again after a second
   * rather than after half a 30 s grace period.
   */
  static final NamespaceController.Options NAMESPACE_PACING =
      new NamespaceController.Options(Duration.ZERO, Duration.ofSeconds(1));

  private CompletableFuture<Void> startControllerManager() {
    KubernetesClient client =
        newClient(
            "controller-manager",
            ClientOptions.CONTROLLER_MANAGER_QPS,
            ClientOptions.CONTROLLER_MANAGER_BURST,
            kubeconfigOf(identities.controllerManager()));
    ControllerManager.Handle h =
        ControllerManager.start(
            ctx.withName("controller-manager"),
            client,
            ControllerManagerOptions.defaults()
                .withFeatureGates(options.featureGates())
                .withLifecycle(LifecycleOptions.defaults().withNamespace(NAMESPACE_PACING)));
    started.push(new Stoppable("controller-manager", h::stop));
    metrics.add(h.registry(), Labels.EMPTY);
    return h.synced();
  }

  private CompletableFuture<Void> startScheduler() {
    KubernetesClient client =
        newClient(
            "scheduler",
            ClientOptions.SCHEDULER_QPS,
            ClientOptions.SCHEDULER_BURST,
            kubeconfigOf(identities.scheduler()));
    PrometheusRegistry registry = new PrometheusRegistry();
    metrics.add(registry, Labels.EMPTY);
    SchedulerServer.Handle h =
        SchedulerServer.start(
            ctx.withName("scheduler"),
            client,
            SchedulerOptions.defaults()
                .withFeatureGates(options.featureGates())
                .withRegistry(registry));
    started.push(new Stoppable("scheduler", h));
    return h.synced();
  }

  /**
   * With {@code --controller-plugins}, one dra-example-controller per profile's driver, as the
   * chart's {@code controller.plugins} deploys one per chart install (each install is one driver).
   * They share one client as the chart's service account.
   */
  private CompletableFuture<Void> startExampleControllers() {
    if (options.controllerPlugins().isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    KubernetesClient client =
        newClient(
            "dra-example-controller",
            EXAMPLE_CONTROLLER_QPS,
            EXAMPLE_CONTROLLER_BURST,
            kubeconfigOf(identities.exampleController()));
    List<CompletableFuture<Void>> synced = new ArrayList<>();
    for (String profile : options.profiles()) {
      ExampleController c =
          ExampleController.start(
              ctx, client, UpOptions.driverName(profile), options.controllerPlugins());
      started.push(new Stoppable("dra-example-controller " + profile, c));
      synced.add(c.synced());
    }
    return CompletableFuture.allOf(synced.toArray(CompletableFuture[]::new));
  }

  /**
   * Starts every node's kubelet, then, once the kubelets are up, their drivers, as on a real
   * cluster where the driver's DaemonSet pods run only once the kubelet does: the kubelet wipes its
   * node's ResourceSlices at start, and a driver that published before that wipe would be without
   * slices until its next sync. The nodes share one kubelet HTTP server (for container logs); each
   * kubelet has its own client as {@code system:node:NODE}, and the drivers of a node share one as
   * the driver's service account bound to that node.
   */
  private void startNodes() {
    KubeletServer logs;
    try {
      logs = KubeletServer.start("127.0.0.1", 0);
    } catch (IOException e) {
      throw new UncheckedIOException("start the kubelet endpoint: " + e.getMessage(), e);
    }
    started.push(new Stoppable("kubelet endpoint", logs));
    List<CompletableFuture<Void>> ready = new ArrayList<>();
    for (int i = 1; i <= options.nodes(); i++) {
      ready.add(startKubelet(UpOptions.nodeName(i), logs));
    }
    awaitSynced("kubelets", CompletableFuture.allOf(ready.toArray(CompletableFuture[]::new)));
    for (int i = 1; i <= options.nodes(); i++) {
      startDrivers(UpOptions.nodeName(i));
    }
  }

  private CompletableFuture<Void> startKubelet(String node, KubeletServer logs) {
    KubernetesClient client =
        newClient(
            "kubelet/" + node,
            ClientOptions.KUBELET_QPS,
            ClientOptions.KUBELET_BURST,
            kubeconfigOf(identities.kubelet(node)));
    Path root = options.nodeRoot(node);
    Ctx nodeCtx = ctx.withName("kubelet").withValues("node", node);
    Kubelet.Handle kubelet;
    try {
      PrometheusRegistry registry = new PrometheusRegistry();
      metrics.add(registry, Labels.of("node", node));
      kubelet =
          Kubelet.start(
              nodeCtx, KubeletOptions.of(client, node, root, logs).withRegistry(registry));
    } catch (IOException e) {
      throw new UncheckedIOException("start kubelet " + node + ": " + e.getMessage(), e);
    }
    started.push(new Stoppable("kubelet " + node, kubelet));
    return kubelet.ready();
  }

  private void startDrivers(String node) {
    KubernetesClient client =
        newClient(
            "dra-example-driver/" + node,
            ClientOptions.DEFAULT_QPS,
            ClientOptions.DEFAULT_BURST,
            kubeconfigOf(identities.driver(node)));
    Path root = options.nodeRoot(node);
    for (String profile : options.profiles()) {
      Flags flags = DriverFlags.forDriver(driverFlags, options, profile, node, root);
      // Each driver counts in its own registry, as its own process would; the merged endpoint
      // tells the drivers of one node apart by driver name.
      PrometheusRegistry registry = new PrometheusRegistry();
      ExampleDriver driver = ExampleDriver.start(ctx, flags, client, registry);
      metrics.add(registry, Labels.of("node", node, "driver", flags.driverName()));
      started.push(new Stoppable("driver " + flags.driverName() + " on " + node, driver::stop));
    }
  }

  private static void awaitSynced(
      String component, java.util.concurrent.CompletableFuture<Void> synced) {
    try {
      synced.get(2, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting " + component, e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(
          "start " + component + ": " + e.getCause().getMessage(), e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(component + " did not start within 2 minutes", e);
    }
  }

  /** The API server of this cluster. */
  public EmbeddedApiServer server() {
    return server;
  }

  /** The admin client (the user's identity). */
  public KubernetesClient admin() {
    return admin;
  }

  /** Stops every component, newest first; never throws, logs what failed to stop. */
  @Override
  public void close() {
    while (!started.isEmpty()) {
      Stoppable s = started.pop();
      long t0 = System.nanoTime();
      try {
        s.stop().close();
      } catch (Exception e) {
        ctx.logger().error(e, "Stopping failed", "component", s.name());
      }
      long ms = (System.nanoTime() - t0) / 1_000_000;
      // Slow stops are what make Ctrl-C slow: name them.
      (ms >= 1000 ? ctx.logger() : ctx.logger().v(3))
          .info("Stopped", "component", s.name(), "durationMs", ms);
    }
  }
}
