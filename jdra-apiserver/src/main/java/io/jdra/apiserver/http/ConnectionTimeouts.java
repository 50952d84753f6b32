package io.jdra.apiserver.http;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Closes connections that hold the server without using it, as the timeouts of kube-apiserver's Go
 * HTTP server do: after a response, a connection must deliver its next request's headers within
 * {@link #HEADER} (ReadHeaderTimeout, which also bounds idle HTTP/1 keep-alive), and an HTTP/2
 * connection without open streams is closed after {@link #IDLE_HTTP2}. A request in flight (a long
 * watch, a WebSocket) is never cut. Each connection's state lives on its event loop.
 *
 * <p>Vert.x 4 makes a connection known only with its first request head, so a connection that never
 * completes one is not covered here (TLS ones are bounded by Vert.x's 10 s handshake timeout).
 */
public final class ConnectionTimeouts {
  /** kube-apiserver's ReadHeaderTimeout: just below its request timeout's upper bound. */
  public static final Duration HEADER = Duration.ofSeconds(32);

  /** kube-apiserver's HTTP/2 IdleTimeout. */
  public static final Duration IDLE_HTTP2 = Duration.ofSeconds(90);

  private final Vertx vertx;
  private final Duration header;
  private final Duration idleHttp2;
  private final Map<HttpConnection, State> connections = new ConcurrentHashMap<>();

  private static final class State {
    int inFlight;
    long timer = -1;
    boolean http2;
  }

  public ConnectionTimeouts(Vertx vertx) {
    this(vertx, HEADER, IDLE_HTTP2);
  }

  /** With other limits (for tests). */
  public ConnectionTimeouts(Vertx vertx, Duration header, Duration idleHttp2) {
    this.vertx = vertx;
    this.header = header;
    this.idleHttp2 = idleHttp2;
  }

  /** Serves {@code handler} on {@code server} with these timeouts; returns the server. */
  public HttpServer install(HttpServer server, Handler<HttpServerRequest> handler) {
    return server
        .connectionHandler(this::connected)
        .requestHandler(req -> {
          requestStarted(req);
          handler.handle(req);
        });
  }

  private void connected(HttpConnection c) {
    State s = new State();
    connections.put(c, s);
    c.closeHandler(v -> {
      cancel(s);
      connections.remove(c);
    });
    arm(c, s);
  }

  private void requestStarted(HttpServerRequest req) {
    HttpConnection c = req.connection();
    State s = c == null ? null : connections.get(c);
    if (s == null) {
      return;
    }
    s.inFlight++;
    s.http2 = req.version() == HttpVersion.HTTP_2;
    cancel(s);
    if (isUpgrade(req)) {
      return; // a WebSocket keeps the connection for its whole life
    }
    boolean[] done = {false};
    Runnable finished =
        () -> {
          if (!done[0]) {
            done[0] = true;
            if (--s.inFlight == 0) {
              arm(c, s);
            }
          }
        };
    req.response().endHandler(v -> finished.run()).closeHandler(v -> finished.run());
  }

  private void arm(HttpConnection c, State s) {
    cancel(s);
    Duration limit = s.http2 ? idleHttp2 : header;
    s.timer =
        vertx.setTimer(
            Math.max(1, limit.toMillis()),
            id -> {
              s.timer = -1;
              if (s.inFlight == 0) {
                c.close();
              }
            });
  }

  private void cancel(State s) {
    if (s.timer >= 0) {
      vertx.cancelTimer(s.timer);
      s.timer = -1;
    }
  }

  private static boolean isUpgrade(HttpServerRequest req) {
    String upgrade = req.getHeader("Upgrade");
    return upgrade != null && upgrade.equalsIgnoreCase("websocket");
  }
}
