package io.jdra.exampledriver;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.jdra.kubeletplugin.Options;
import io.jdra.proto.UnixSockets;
import io.jdra.proto.dra.v1.DRAPluginGrpc;
import io.jdra.proto.dra.v1.NodePrepareResourcesRequest;
import io.jdra.proto.grpchealth.v1.HealthCheckRequest;
import io.jdra.proto.grpchealth.v1.HealthCheckResponse;
import io.jdra.proto.grpchealth.v1.HealthCheckResponse.ServingStatus;
import io.jdra.proto.grpchealth.v1.HealthGrpc;
import io.jdra.proto.pluginregistration.v1.InfoRequest;
import io.jdra.proto.pluginregistration.v1.RegistrationGrpc;
import io.jdra.runtime.Ctx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The gRPC health service of {@code --healthcheck-port} (upstream health.go), for a liveness probe:
 * {@code Check} of the service {@code ""} or {@code "liveness"} calls the driver's own registration
 * socket (GetInfo) and DRA socket (an empty NodePrepareResources) the way the kubelet would, and
 * answers SERVING only when both answer. Other service names are NOT_FOUND. Listens on all
 * interfaces, as upstream; port 0 picks a free one.
 */
final class Healthcheck implements AutoCloseable {
  private static final Set<String> KNOWN_SERVICES = Set.of("", "liveness");

  private final Ctx ctx;
  private final ManagedChannel registration;
  private final ManagedChannel dra;
  private final Server server;

  private Healthcheck(Ctx ctx, Options options, int port) {
    this.ctx = ctx;
    ctx.logger().info("connecting to registration socket", "path", options.registrarSocketPath());
    this.registration = UnixSockets.channel(options.registrarSocketPath());
    ctx.logger().info("connecting to DRA socket", "path", options.pluginSocketPath());
    this.dra = UnixSockets.channel(options.pluginSocketPath());
    this.server =
        NettyServerBuilder.forAddress(new InetSocketAddress(port))
            .addService(new Service())
            .build();
  }

  /**
   * Starts serving on {@code port} (0: a free one); null when {@code port} is negative (off).
   *
   * @throws UncheckedIOException the port cannot be bound (message names it)
   */
  static Healthcheck start(Ctx ctx, Options options, int port) {
    if (port < 0) {
      return null;
    }
    Healthcheck h = new Healthcheck(ctx, options, port);
    try {
      h.server.start();
    } catch (IOException e) {
      h.closeChannels();
      throw new UncheckedIOException(
          "failed to listen for healthcheck service at :" + port + ": " + e.getMessage(), e);
    }
    ctx.logger().info("starting healthcheck service", "addr", ":" + h.port());
    return h;
  }

  /** The port served. */
  int port() {
    return server.getPort();
  }

  @Override
  public void close() {
    ctx.logger().info("stopping healthcheck service");
    server.shutdown();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server.shutdownNow();
    closeChannels();
  }

  private void closeChannels() {
    registration.shutdownNow();
    dra.shutdownNow();
  }

  private ServingStatus probe() {
    try {
      RegistrationGrpc.newBlockingStub(registration)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .getInfo(InfoRequest.getDefaultInstance());
    } catch (StatusRuntimeException e) {
      ctx.logger().error(e, "failed to call GetInfo");
      return ServingStatus.NOT_SERVING;
    }
    try {
      DRAPluginGrpc.newBlockingStub(dra)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .nodePrepareResources(NodePrepareResourcesRequest.getDefaultInstance());
    } catch (StatusRuntimeException e) {
      ctx.logger().error(e, "failed to call NodePrepareResources");
      return ServingStatus.NOT_SERVING;
    }
    return ServingStatus.SERVING;
  }

  private final class Service extends HealthGrpc.HealthImplBase {
    @Override
    public void check(HealthCheckRequest req, StreamObserver<HealthCheckResponse> out) {
      if (!KNOWN_SERVICES.contains(req.getService())) {
        out.onError(Status.NOT_FOUND.withDescription("unknown service").asRuntimeException());
        return;
      }
      out.onNext(HealthCheckResponse.newBuilder().setStatus(probe()).build());
      out.onCompleted();
    }
  }
}
