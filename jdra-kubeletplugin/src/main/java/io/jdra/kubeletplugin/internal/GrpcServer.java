package io.jdra.kubeletplugin.internal;

import io.grpc.BindableService;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.jdra.proto.UnixSockets;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.logging.Logger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A gRPC server on one Unix socket (upstream nonblockinggrpcserver.go + endpoint.go): removes a
 * stale socket before listening, gives every call a {@link Ctx} with a request ID and the method in
 * its logger, logs requests and responses at the configured verbosity and failures always, and
 * removes the socket when stopped.
 */
public final class GrpcServer {
  /** The per-call context, read by service implementations with {@link #ctx()}. */
  private static final Context.Key<Ctx> CTX = Context.key("jdra-ctx");

  private final Path socket;
  private final Server server;
  private final Logger logger;

  private GrpcServer(Path socket, Server server, Logger logger) {
    this.socket = socket;
    this.server = server;
    this.logger = logger;
  }

  /**
   * Listens on {@code socket} and serves {@code services}.
   *
   * @throws UncheckedIOException the socket cannot be created (message says which and why)
   */
  public static GrpcServer start(
      Ctx ctx,
      Path socket,
      List<BindableService> services,
      Executor executor,
      int verbosity,
      AtomicLong requestIds) {
    removeSocket(socket);
    NettyServerBuilder b = UnixSockets.serverBuilder(socket);
    if (executor != null) {
      b.executor(executor);
    }
    ServerInterceptor interceptor = new Interceptor(ctx, verbosity, requestIds);
    for (BindableService s : services) {
      b.addService(ServerInterceptors.intercept(s, interceptor));
    }
    Server server = b.build();
    try {
      server.start();
    } catch (IOException e) {
      server.shutdownNow();
      removeSocketQuietly(socket);
      throw new UncheckedIOException("listen on " + socket + ": " + e.getMessage(), e);
    }
    ctx.logger().v(3).info("GRPC server started", "endpoint", socket.toString());
    return new GrpcServer(socket, server, ctx.logger());
  }

  /** The context of the call running on this thread. */
  public static Ctx ctx() {
    Ctx c = CTX.get();
    if (c == null) {
      throw new IllegalStateException("not inside a gRPC call of a jdra server");
    }
    return c;
  }

  public Path socket() {
    return socket;
  }

  /** Stops at once (as upstream's Stop, not GracefulStop), waits briefly, removes the socket. */
  public void stop() {
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    removeSocketQuietly(socket);
    logger.v(3).info("GRPC server stopped", "endpoint", socket.toString());
  }

  static void removeSocket(Path socket) {
    try {
      Files.deleteIfExists(socket);
      Files.createDirectories(socket.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "remove Unix domain socket " + socket + ": " + e.getMessage(), e);
    }
  }

  private static void removeSocketQuietly(Path socket) {
    try {
      Files.deleteIfExists(socket);
    } catch (IOException ignored) {
      // The next start removes it anyway.
    }
  }

  private static final class Interceptor implements ServerInterceptor {
    private final Ctx base;
    private final int verbosity;
    private final AtomicLong requestIds;

    Interceptor(Ctx base, int verbosity, AtomicLong requestIds) {
      this.base = base;
      this.verbosity = verbosity;
      this.requestIds = requestIds;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      long id = requestIds.incrementAndGet();
      String method = "/" + call.getMethodDescriptor().getFullMethodName();
      Ctx ctx = base.withValues("requestID", id, "method", method);
      Logger log = ctx.logger();
      ServerCall<Q, R> logged =
          new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void sendMessage(R message) {
              log.v(verbosity).info("handling request succeeded", "response", message);
              super.sendMessage(message);
            }

            @Override
            public void close(Status status, Metadata trailers) {
              if (!status.isOk()) {
                log.error(status.asRuntimeException(), "handling request failed");
              }
              super.close(status, trailers);
            }
          };
      ServerCall.Listener<Q> listener =
          Contexts.interceptCall(Context.current().withValue(CTX, ctx), logged, headers, next);
      return new io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
          listener) {
        @Override
        public void onMessage(Q message) {
          log.v(verbosity).info("handling request", "request", message);
          super.onMessage(message);
        }
      };
    }
  }
}
