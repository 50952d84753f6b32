package io.jdra.exampledriver;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.exampledriver.profiles.Profile;
import io.jdra.kubeletplugin.Device;
import io.jdra.kubeletplugin.DeviceHealth;
import io.jdra.kubeletplugin.DeviceHealthSource;
import io.jdra.kubeletplugin.DraPlugin;
import io.jdra.kubeletplugin.Helper;
import io.jdra.kubeletplugin.KubeletPlugin;
import io.jdra.kubeletplugin.NamespacedObject;
import io.jdra.kubeletplugin.Options;
import io.jdra.kubeletplugin.PrepareResult;
import io.jdra.kubeletplugin.RecoverableException;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.logging.HandleError;
import io.jdra.runtime.logging.Klog;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Java twin of dra-example-driver's kubelet plugin (upstream cmd/dra-example-kubeletplugin):
 * simulated devices of one {@link Profile}, published as ResourceSlices of the node's pool,
 * prepared by writing CDI specs whose environment variables tell a container what it got.
 *
 * <p>{@link #start} runs it in this JVM until {@link #stop()} or until the context is cancelled;
 * many can run side by side (one per simulated node). A fatal background error cancels the driver's
 * context, as upstream's cancels its main context, and nothing calls {@code System.exit}.
 */
public final class ExampleDriver implements DraPlugin, DeviceHealthSource, AutoCloseable {
  private final Ctx ctx;
  private final Flags flags;
  private final DeviceState state;
  private final HealthFile health;
  private final DriverMetrics metrics;
  private Helper helper;
  private volatile Healthcheck healthcheck;

  private ExampleDriver(
      Ctx ctx, Flags flags, DeviceState state, HealthFile health, DriverMetrics metrics) {
    this.ctx = ctx;
    this.flags = flags;
    this.state = state;
    this.health = health;
    this.metrics = metrics;
  }

  /**
   * {@link #start(Ctx, Flags, KubernetesClient, PrometheusRegistry)} with a registry of its own.
   */
  public static ExampleDriver start(Ctx parent, Flags flags, KubernetesClient client) {
    return start(parent, flags, client, new PrometheusRegistry());
  }

  /**
   * Starts the driver: creates the plugin and CDI directories, writes the common CDI spec, serves
   * the kubelet's gRPC APIs and publishes the devices. Returns once the sockets listen (slices are
   * published in the background; see {@link #published()}). With {@code --healthcheck-port} >= 0 it
   * also serves the gRPC health service. The driver's metrics (upstream's {@code
   * dra_example_driver_*}) go to {@code registry}; serving them ({@code --metrics-port}) is the
   * caller's part, as upstream's main starts the metrics server.
   *
   * @throws IllegalArgumentException for bad flags
   * @throws UncheckedIOException when a directory, socket or port cannot be created
   */
  public static ExampleDriver start(
      Ctx parent, Flags flags, KubernetesClient client, PrometheusRegistry registry) {
    Ctx ctx =
        parent
            .withName("example-driver")
            .withValues("driverName", flags.driverName(), "node", flags.nodeName())
            .withCancel();
    try {
      Files.createDirectories(flags.driverPluginPath());
      if (Files.exists(flags.cdiRoot()) && !Files.isDirectory(flags.cdiRoot())) {
        throw new IllegalArgumentException(
            "path for cdi file generation is not a directory: '" + flags.cdiRoot() + "'");
      }
      Files.createDirectories(flags.cdiRoot());
    } catch (IOException e) {
      ctx.cancel();
      throw new UncheckedIOException("create directories: " + e.getMessage(), e);
    }
    Profile profile = flags.newProfile();
    DeviceState state;
    try {
      state = new DeviceState(flags, profile, client);
    } catch (RuntimeException e) {
      ctx.cancel();
      throw e;
    }
    HealthFile health =
        new HealthFile(
            flags.driverPluginPath(),
            flags.nodeName(),
            new ArrayList<>(state.allocatable().keySet()),
            ctx.clock().now());
    ExampleDriver driver =
        new ExampleDriver(ctx, flags, state, health, DriverMetrics.create(registry));
    Options.Builder options =
        Options.builder(flags.driverName())
            .kubeClient(client)
            .nodeName(flags.nodeName())
            .registrarDirectoryPath(flags.kubeletRegistrarDirectoryPath())
            .pluginDataDirectoryPath(flags.driverPluginPath());
    if (flags.podUid() != null) {
      // Two instances share the checkpoint during the update: one call at a time, file-locked.
      options.rollingUpdate(flags.podUid());
    } else {
      // DeviceState handles concurrency itself, so that concurrent calls share checkpoint writes
      // (upstream's Serialize: "a driver can opt out ... but then must handle concurrency").
      options.serialize(false);
    }
    try {
      driver.helper = KubeletPlugin.start(ctx, driver, options.build());
      driver.healthcheck = Healthcheck.start(ctx, driver.helper.options(), flags.healthcheckPort());
      driver.helper.publishResources(state.driverResources());
    } catch (RuntimeException e) {
      driver.stop();
      throw e;
    }
    Thread.ofVirtual().name("device-health-" + flags.driverName()).start(() -> health.run(ctx));
    ctx.logger()
        .info(
            "Example driver started",
            "profile",
            profile.name(),
            "devices",
            state.allocatable().size());
    return driver;
  }

  public Flags flags() {
    return flags;
  }

  public Helper helper() {
    return helper;
  }

  /** Whether the devices are published as ResourceSlices as currently desired. */
  public boolean published() {
    var c = helper == null ? null : helper.resourceSliceController();
    return c != null && c.published();
  }

  /** Waits until {@link #published}, at most {@code timeout}; returns whether it is. */
  public boolean awaitPublished(Duration timeout) throws InterruptedException {
    var c = helper == null ? null : helper.resourceSliceController();
    return c != null && c.awaitPublished(timeout);
  }

  /** The file whose content sets device health (see {@link HealthFile}). */
  public Path healthFile() {
    return health.path();
  }

  /** Checkpoint files written since start (group commit shows as fewer writes than changes). */
  public long checkpointWrites() {
    return state.checkpointWrites();
  }

  /** Whether the driver stopped, by {@link #stop()}, its context, or a fatal error. */
  public boolean stopped() {
    return ctx.isCancelled();
  }

  /**
   * Prepares each claim in memory and in its CDI spec, then waits once for the checkpoint write
   * that covers all of them (and whatever concurrent calls changed meanwhile).
   */
  @Override
  public Map<String, PrepareResult> prepareResourceClaims(Ctx c, List<ResourceClaim> claims) {
    c.logger().info("PrepareResourceClaims is called", "numClaims", claims.size());
    Map<String, PrepareResult> result = new HashMap<>();
    Map<String, DeviceState.Pending> pending = new LinkedHashMap<>();
    long version = 0;
    long start = System.nanoTime();
    for (ResourceClaim claim : claims) {
      String uid = claim.getMetadata().getUid();
      c.logger().info("Preparing claim", "uid", uid, "claim", Klog.kobj(claim));
      try {
        DeviceState.Pending p = state.prepare(c, claim);
        pending.put(uid, p);
        version = Math.max(version, p.version());
      } catch (RuntimeException e) {
        result.put(uid, prepareFailed(c, uid, e));
        metrics.observePrepare(false, Duration.ofNanos(System.nanoTime() - start));
      }
    }
    RuntimeException commitError = commit(version, pending.isEmpty());
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    pending.forEach((uid, p) -> {
      result.put(
          uid, commitError != null ? prepareFailed(c, uid, commitError) : prepared(c, uid, p));
      metrics.observePrepare(commitError == null, took);
    });
    return result;
  }

  private PrepareResult prepared(Ctx c, String uid, DeviceState.Pending p) {
    List<Device> devices = new ArrayList<>();
    for (DeviceState.Prepared d : p.prepared()) {
      var r = d.result();
      devices.add(
          new Device(
              List.of(r.getRequest()),
              r.getPool(),
              r.getDevice(),
              d.cdiDeviceIds(),
              r.getShareID()));
    }
    c.logger().info("Returning newly prepared devices for claim", "uid", uid, "devices", devices);
    return PrepareResult.ok(devices);
  }

  private static PrepareResult prepareFailed(Ctx c, String uid, RuntimeException e) {
    c.logger().error(e, "Error preparing devices for claim", "uid", uid);
    return PrepareResult.failed(
        new IllegalStateException(
            "error preparing devices for claim " + uid + ": prepare failed: " + e.getMessage(), e));
  }

  /** Waits for the checkpoint write; returns its error instead of throwing it. */
  private RuntimeException commit(long version, boolean nothing) {
    if (nothing) {
      return null;
    }
    try {
      state.commit(version);
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }

  @Override
  public Map<String, Throwable> unprepareResourceClaims(Ctx c, List<NamespacedObject> claims) {
    c.logger().info("UnprepareResourceClaims is called", "numClaims", claims.size());
    Map<String, Throwable> result = new HashMap<>();
    List<String> pending = new ArrayList<>();
    long version = 0;
    long start = System.nanoTime();
    for (NamespacedObject claim : claims) {
      try {
        version = Math.max(version, state.unprepare(claim.uid()).version());
        pending.add(claim.uid());
      } catch (RuntimeException e) {
        result.put(claim.uid(), unprepareFailed(claim.uid(), e));
        metrics.observeUnprepare(false, Duration.ofNanos(System.nanoTime() - start));
      }
    }
    RuntimeException commitError = commit(version, pending.isEmpty());
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    for (String uid : pending) {
      result.put(uid, commitError == null ? null : unprepareFailed(uid, commitError));
      metrics.observeUnprepare(commitError == null, took);
    }
    return result;
  }

  private static Throwable unprepareFailed(String uid, RuntimeException e) {
    return new IllegalStateException(
        "error unpreparing devices for claim " + uid + ": unprepare failed: " + e.getMessage(), e);
  }

  /** Logs; a non-recoverable error stops the driver, as upstream cancels its main context. */
  @Override
  public void handleError(Ctx c, Throwable err, String msg) {
    HandleError.handle(c, err, msg);
    if (!RecoverableException.isRecoverable(err)) {
      metrics.fatalBackgroundError();
      ctx.logger().error(err, "Fatal background error, stopping the driver");
      Thread.ofVirtual().start(this::stop);
    }
  }

  @Override
  public List<DeviceHealth> deviceHealth() {
    return health.current();
  }

  @Override
  public AutoCloseable watchDeviceHealth(Runnable onChange) {
    return health.watch(onChange);
  }

  /** Stops serving (sockets removed) and publishing; slices and CDI specs stay. Idempotent. */
  public void stop() {
    Healthcheck h = healthcheck;
    if (h != null) {
      h.close();
    }
    if (helper != null) {
      helper.stop();
    }
    ctx.cancel();
  }

  /** The port of the gRPC health service, or -1 when {@code --healthcheck-port} is negative. */
  public int healthcheckPort() {
    Healthcheck h = healthcheck;
    return h == null ? -1 : h.port();
  }

  @Override
  public void close() {
    stop();
  }
}
