package io.jdra.kubelet.dra.plugin;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.jdra.kubelet.dra.DraMetrics;
import io.jdra.kubelet.pluginmanager.PluginHandler;
import io.jdra.proto.UnixSockets;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.logging.Logger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The registered DRA drivers of one kubelet (upstream DRAPluginManager): the registration handler
 * for plugin type {@code DRAPlugin}, the store the manager looks drivers up in, the ResourceSlice
 * wiping when a driver goes away, and the start of each driver's health stream.
 *
 * <p>A driver may have several endpoints at once (a rolling update starts the new instance before
 * stopping the old one); calls go to the most recently registered endpoint whose connection is not
 * broken. When a driver's last endpoint is removed or its connection fails, its ResourceSlices are
 * deleted after the wiping delay (30 s) unless an endpoint comes back first. Thread-safe.
 */
public final class DraPluginManager implements DraPlugins, PluginHandler {
  /** The registration type DRA drivers use. */
  public static final String PLUGIN_TYPE = "DRAPlugin";

  /**
   * Upstream defaultWipingDelay: long enough for a driver pod to be restarted, short enough that
   * the scheduler does not keep placing pods on devices nobody serves.
   */
  public static final Duration DEFAULT_WIPING_DELAY = Duration.ofSeconds(30);

  /** Called when an endpoint registers, with whether it offers the health service. */
  public interface HealthStarter {
    /** Starts watching {@code plugin}'s health until {@code ctx} is cancelled. */
    void start(Ctx ctx, DraPluginClient plugin);
  }

  private final class Endpoint {
    final DraPluginClient client;
    final Ctx ctx;
    volatile boolean broken;

    Endpoint(DraPluginClient client, Ctx ctx) {
      this.client = client;
      this.ctx = ctx;
    }
  }

  private final Ctx ctx;
  private final Logger logger;
  private final ResourceSliceWiper wiper;
  private final Duration wipingDelay;
  private final DraMetrics metrics;
  private final HealthStarter health;
  private final Map<String, List<Endpoint>> drivers = new HashMap<>();
  private final Map<String, Clock.Timer> pendingWipes = new HashMap<>();

  public DraPluginManager(
      Ctx ctx,
      ResourceSliceWiper wiper,
      Duration wipingDelay,
      DraMetrics metrics,
      HealthStarter health) {
    this.ctx = ctx;
    this.logger = ctx.logger().withName("dra-plugin-manager");
    this.wiper = wiper;
    this.wipingDelay = wipingDelay;
    this.metrics = metrics;
    this.health = health;
  }

  /**
   * Wipes all of this node's ResourceSlices (upstream does so at kubelet start: no driver is
   * registered yet, and pods scheduled against stale slices could get stuck).
   */
  public void wipeAllAtStart() {
    wiper.wipe(ctx, null);
  }

  @Override
  public DraPlugin getPlugin(String driverName) throws DriverNotRegisteredException {
    synchronized (this) {
      List<Endpoint> eps = drivers.getOrDefault(driverName, List.of());
      for (int i = eps.size() - 1; i >= 0; i--) {
        if (!eps.get(i).broken) {
          return eps.get(i).client;
        }
      }
    }
    throw new DriverNotRegisteredException(driverName);
  }

  /** Driver names with at least one usable endpoint. */
  public synchronized List<String> registeredDrivers() {
    List<String> out = new ArrayList<>();
    drivers.forEach((name, eps) -> {
      if (eps.stream().anyMatch(e -> !e.broken)) {
        out.add(name);
      }
    });
    out.sort(null);
    return out;
  }

  @Override
  public void validatePlugin(String pluginName, String endpoint, List<String> versions)
      throws Exception {
    chooseService(pluginName, versions);
  }

  /** The DRA service to use: {@code v1.DRAPlugin} when offered, else {@code v1beta1.DRAPlugin}. */
  static String chooseService(String pluginName, List<String> versions) throws Exception {
    if (versions == null || versions.isEmpty()) {
      throw new Exception("empty list of supported gRPC services (aka supported versions)");
    }
    for (String s : List.of(DraPluginClient.V1_SERVICE, DraPluginClient.V1BETA1_SERVICE)) {
      if (versions.contains(s)) {
        return s;
      }
    }
    throw new Exception(
        "none of the supported gRPC services "
            + List.of(DraPluginClient.V1_SERVICE, DraPluginClient.V1BETA1_SERVICE)
            + " are provided by plugin "
            + pluginName
            + ", it offers "
            + versions);
  }

  @Override
  public void registerPlugin(
      String pluginName, String endpoint, List<String> versions, Duration timeout)
      throws Exception {
    String service;
    try {
      service = chooseService(pluginName, versions);
    } catch (Exception e) {
      throw new Exception("version check of plugin " + pluginName + " failed: " + e.getMessage());
    }
    ManagedChannel channel = UnixSockets.channel(Path.of(endpoint));
    DraPluginClient client =
        new DraPluginClient(
            pluginName,
            endpoint,
            service,
            channel,
            timeout == null ? DraPluginClient.DEFAULT_CALL_TIMEOUT : timeout,
            metrics);
    Ctx epCtx = ctx.withCancel().withValues("pluginName", pluginName, "endpoint", endpoint);
    Endpoint ep = new Endpoint(client, epCtx);
    synchronized (this) {
      List<Endpoint> eps = drivers.computeIfAbsent(pluginName, n -> new ArrayList<>());
      // The same endpoint registering again (socket recreated) replaces the old entry.
      eps.removeIf(old -> {
        if (old.client.endpoint().equals(endpoint)) {
          close(old);
          return true;
        }
        return false;
      });
      eps.add(ep);
      cancelWipe(pluginName);
    }
    logger
        .v(3)
        .info(
            "Registered DRA plugin",
            "pluginName",
            pluginName,
            "endpoint",
            endpoint,
            "service",
            service);
    monitor(ep, ConnectivityState.IDLE);
    channel.getState(true); // connect now, so a dead endpoint is noticed without a call
    if (versions.contains(DraPluginClient.HEALTH_SERVICE) && health != null) {
      health.start(epCtx, client);
    }
  }

  @Override
  public void deRegisterPlugin(String pluginName, String endpoint) {
    boolean last;
    synchronized (this) {
      List<Endpoint> eps = drivers.get(pluginName);
      if (eps == null) {
        logger
            .v(3)
            .info(
                "Deregister DRA plugin not necessary, was already removed",
                "pluginName",
                pluginName);
        return;
      }
      Endpoint removed = null;
      for (Endpoint e : eps) {
        if (e.client.endpoint().equals(endpoint)) {
          removed = e;
        }
      }
      if (removed == null) {
        return;
      }
      eps.remove(removed);
      close(removed);
      if (eps.isEmpty()) {
        drivers.remove(pluginName);
      }
      last = eps.stream().allMatch(e -> e.broken);
      if (last) {
        scheduleWipe(pluginName);
      }
    }
    logger
        .v(3)
        .info(
            "Deregister DRA plugin",
            "pluginName",
            pluginName,
            "endpoint",
            endpoint,
            "lastInstance",
            last);
  }

  /** Follows the channel's state: a failed connection counts as the endpoint being gone. */
  private void monitor(Endpoint ep, ConnectivityState seen) {
    ManagedChannel ch = ep.client.channel();
    ch.notifyWhenStateChanged(
        seen,
        () -> {
          ConnectivityState now = ch.getState(false);
          if (now == ConnectivityState.SHUTDOWN) {
            return;
          }
          onState(ep, now);
          monitor(ep, now);
        });
  }

  private synchronized void onState(Endpoint ep, ConnectivityState state) {
    String driver = ep.client.driverName();
    List<Endpoint> eps = drivers.getOrDefault(driver, List.of());
    if (!eps.contains(ep)) {
      return;
    }
    boolean wasBroken = ep.broken;
    ep.broken = state == ConnectivityState.TRANSIENT_FAILURE;
    if (ep.broken && !wasBroken) {
      logger.info(
          "DRA plugin connection lost", "pluginName", driver, "endpoint", ep.client.endpoint());
      if (eps.stream().allMatch(e -> e.broken)) {
        scheduleWipe(driver);
      }
    } else if (!ep.broken && wasBroken) {
      logger.info(
          "DRA plugin connection restored", "pluginName", driver, "endpoint", ep.client.endpoint());
      cancelWipe(driver);
    }
  }

  private void scheduleWipe(String driver) {
    cancelWipe(driver);
    logger
        .v(4)
        .info(
            "Starting to wait before wiping ResourceSlices",
            "pluginName",
            driver,
            "delay",
            wipingDelay);
    pendingWipes.put(
        driver,
        ctx.clock()
            .schedule(
                wipingDelay,
                () -> {
                  synchronized (this) {
                    pendingWipes.remove(driver);
                  }
                  wiper.wipe(ctx, driver);
                }));
  }

  private void cancelWipe(String driver) {
    Clock.Timer t = pendingWipes.remove(driver);
    if (t != null) {
      t.cancel();
      logger.v(4).info("Aborting wiping of ResourceSlices", "pluginName", driver);
    }
  }

  private static void close(Endpoint ep) {
    ep.ctx.cancel();
    ep.client.channel().shutdownNow();
  }

  /** Closes every endpoint and cancels pending wipes. */
  public synchronized void stop() {
    pendingWipes.values().forEach(Clock.Timer::cancel);
    pendingWipes.clear();
    drivers.values().forEach(eps -> eps.forEach(DraPluginManager::close));
    drivers.clear();
  }

  /** For tests: the endpoints of {@code driver}, oldest first. */
  synchronized List<String> endpoints(String driver) {
    List<String> out = new ArrayList<>();
    drivers.getOrDefault(driver, List.of()).forEach(e -> out.add(e.client.endpoint()));
    return out;
  }
}
