package io.jdra.apiserver.http;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.impl.ConnectionBase;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Closes connections that hold the server without using it, as the timeouts of kube-apiserver's Go
 * HTTP server do: a new connection must complete its first request head within {@link
 * HttpTimeouts#readHeader} of being accepted (a TLS handshake or HTTP/2 preface that never ends, or
 * a slowloris that trickles header bytes, is cut), and a connection without a request in flight is
 * closed after {@link HttpTimeouts#idle}. A request in flight (a long watch, a WebSocket) is never
 * cut here. Each connection's state lives on its event loop.
 */
public final class ConnectionTimeouts {
  private static final AttributeKey<State> STATE = AttributeKey.valueOf("jdra.connection.timeouts");

  private final HttpTimeouts timeouts;

  /** One connection's requests in flight and its pending timeout; used on its event loop only. */
  private static final class State {
    int inFlight;
    ScheduledFuture<?> timer;
  }

  public ConnectionTimeouts(HttpTimeouts timeouts) {
    this.timeouts = timeouts;
  }

  /** An HTTP server serving {@code handler} with these timeouts. */
  public HttpServer create(
      Vertx vertx, HttpServerOptions options, Handler<HttpServerRequest> handler) {
    return new AcceptingHttpServer(vertx, options, this::accepted)
        .requestHandler(req -> {
          requestStarted(req);
          handler.handle(req);
        });
  }

  private void accepted(Channel ch) {
    State s = new State();
    ch.attr(STATE).set(s);
    ch.closeFuture().addListener(f -> cancel(s));
    arm(ch, s, timeouts.readHeader());
  }

  private void requestStarted(HttpServerRequest req) {
    Channel ch = channel(req.connection());
    State s = ch == null ? null : ch.attr(STATE).get();
    if (s == null) {
      return;
    }
    onLoop(
        ch,
        () -> {
          s.inFlight++;
          cancel(s);
        });
    if (isUpgrade(req)) {
      return; // a WebSocket keeps the connection for its whole life
    }
    boolean[] done = {false};
    Runnable finished =
        () ->
            onLoop(
                ch,
                () -> {
                  if (!done[0]) {
                    done[0] = true;
                    if (--s.inFlight == 0) {
                      arm(ch, s, timeouts.idle());
                    }
                  }
                });
    req.response().endHandler(v -> finished.run()).closeHandler(v -> finished.run());
  }

  private static void arm(Channel ch, State s, Duration limit) {
    cancel(s);
    s.timer =
        ch.eventLoop()
            .schedule(
                () -> {
                  s.timer = null;
                  if (s.inFlight == 0) {
                    ch.close();
                  }
                },
                Math.max(1, limit.toMillis()),
                TimeUnit.MILLISECONDS);
  }

  private static void cancel(State s) {
    if (s.timer != null) {
      s.timer.cancel(false);
      s.timer = null;
    }
  }

  /** The TCP connection under a Vert.x HTTP connection (for HTTP/2, the one its streams share). */
  private static Channel channel(HttpConnection c) {
    return c instanceof ConnectionBase b ? b.channel() : null;
  }

  private static void onLoop(Channel ch, Runnable r) {
    if (ch.eventLoop().inEventLoop()) {
      r.run();
    } else {
      ch.eventLoop().execute(r);
    }
  }

  private static boolean isUpgrade(HttpServerRequest req) {
    String upgrade = req.getHeader("Upgrade");
    return upgrade != null && upgrade.equalsIgnoreCase("websocket");
  }
}
