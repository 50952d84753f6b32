package io.jdra.kubeletplugin;

import io.grpc.BindableService;
import io.jdra.kubeletplugin.internal.DraServices;
import io.jdra.kubeletplugin.internal.GrpcServer;
import io.jdra.kubeletplugin.internal.HealthService;
import io.jdra.kubeletplugin.internal.NodeService;
import io.jdra.kubeletplugin.internal.RegistrationService;
import io.jdra.kubeletplugin.internal.Serializer;
import io.jdra.runtime.Ctx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Entry point of the driver SDK (upstream {@code kubeletplugin.Start}).
 *
 * <p>{@link #start} serves the DRA service on {@code <plugin data dir>/dra.sock} first and then the
 * registration service on {@code <registrar dir>/<driver>-reg.sock}, so that by the time the
 * kubelet's plugin watcher sees the registration socket, the endpoint it announces answers. Both
 * {@code v1.DRAPlugin} and {@code v1beta1.DRAPlugin} are served by default, plus {@code
 * v1alpha1.DRAResourceHealth} when the plugin implements {@link DeviceHealthSource}.
 *
 * <p>Nothing here is global: any number of plugins can run in one JVM (their gRPC servers share
 * event loops and gRPC's executor), and {@link Helper#stop()} releases their sockets and threads.
 * Nothing calls {@code System.exit}: fatal problems go to {@link DraPlugin#handleError}.
 */
public final class KubeletPlugin {
  private KubeletPlugin() {}

  /**
   * Starts the plugin's gRPC servers. Returns once they listen.
   *
   * @param ctx cancelling it stops the plugin like {@link Helper#stop()}
   * @throws IllegalArgumentException for invalid options
   * @throws java.io.UncheckedIOException when a socket cannot be created (nothing is left running)
   */
  public static Helper start(Ctx ctx, DraPlugin plugin, Options options) {
    if (options.draService() && options.kubeClient() == null) {
      throw new IllegalArgumentException("Kubernetes client must be set");
    }
    Ctx pluginCtx =
        ctx.withName("kubeletplugin").withValues("driverName", options.driverName()).withCancel();
    List<String> versions = new ArrayList<>();
    if (options.nodeV1()) {
      versions.add("v1.DRAPlugin");
    }
    if (options.nodeV1beta1()) {
      versions.add("v1beta1.DRAPlugin");
    }
    boolean health = options.healthService() && plugin instanceof DeviceHealthSource;
    if (health) {
      versions.add("v1alpha1.DRAResourceHealth");
    }
    AtomicLong requestIds = new AtomicLong();
    GrpcServer dra = null;
    GrpcServer reg = null;
    RegistrationService registration = null;
    try {
      if (options.draService()) {
        dra =
            GrpcServer.start(
                pluginCtx.withName("dra"),
                options.pluginSocketPath(),
                draServices(pluginCtx, plugin, options, health),
                options.grpcExecutor(),
                options.grpcVerbosity(),
                requestIds);
      }
      if (options.registrationService()) {
        registration =
            new RegistrationService(
                options.driverName(), options.pluginSocketPath().toString(), versions);
        reg =
            GrpcServer.start(
                pluginCtx.withName("registrar"),
                options.registrarSocketPath(),
                List.of(registration),
                options.grpcExecutor(),
                options.grpcVerbosity(),
                requestIds);
      }
    } catch (RuntimeException e) {
      stopQuietly(dra);
      pluginCtx.cancel();
      throw e;
    }
    pluginCtx.logger().v(3).info("Starting");
    return new Helper(pluginCtx, plugin, options, dra, reg, registration);
  }

  private static List<BindableService> draServices(
      Ctx ctx, DraPlugin plugin, Options o, boolean health) {
    Path lockFile = null;
    if (o.rollingUpdateUid() != null) {
      Path dir =
          o.flockDirectoryPath() != null ? o.flockDirectoryPath() : o.pluginDataDirectoryPath();
      lockFile = dir.resolve("serialize.lock");
    }
    NodeService node =
        new NodeService(
            o.driverName(), o.kubeClient(), plugin, new Serializer(o.serialize(), lockFile));
    List<BindableService> services = new ArrayList<>();
    if (o.nodeV1()) {
      services.add(new DraServices.V1(node));
    }
    if (o.nodeV1beta1()) {
      services.add(new DraServices.V1beta1(node));
    }
    if (health) {
      services.add(new HealthService(ctx, (DeviceHealthSource) plugin));
    }
    return services;
  }

  private static void stopQuietly(GrpcServer s) {
    if (s != null) {
      s.stop();
    }
  }
}
