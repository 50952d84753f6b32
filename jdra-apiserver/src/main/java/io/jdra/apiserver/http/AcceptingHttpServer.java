package io.jdra.apiserver.http;

import io.netty.channel.Channel;
import io.netty.handler.traffic.GlobalTrafficShapingHandler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.HttpServerImpl;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.impl.SslChannelProvider;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Vert.x's HTTP server, telling {@code accepted} of every TCP connection as it is accepted, on the
 * connection's event loop. Vert.x 4's public API reports a connection only once its protocol is
 * settled (after the TLS handshake, and for HTTP/2 after the client's preface), so a client that
 * connects and never gets that far would be invisible to {@link ConnectionTimeouts}. This extends
 * Vert.x 4.5's server class, outside its public API: ConnectionLimitsTest fails if a Vert.x upgrade
 * changes what it relies on.
 */
final class AcceptingHttpServer extends HttpServerImpl {
  private final Consumer<Channel> accepted;

  AcceptingHttpServer(Vertx vertx, HttpServerOptions options, Consumer<Channel> accepted) {
    super((VertxInternal) vertx, options);
    this.accepted = accepted;
  }

  @Override
  protected BiConsumer<Channel, SslChannelProvider> childHandler(
      ContextInternal context, SocketAddress address, GlobalTrafficShapingHandler shaping) {
    BiConsumer<Channel, SslChannelProvider> vertxPipeline =
        super.childHandler(context, address, shaping);
    return (channel, ssl) -> {
      accepted.accept(channel);
      vertxPipeline.accept(channel, ssl);
    };
  }
}
