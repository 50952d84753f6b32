package io.jdra.apiserver.http;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;

/**
 * One request and its response as the handlers see them, whatever carries them: a Vert.x HTTP
 * connection ({@link VertxExchange}) or an in-process call ({@code InProcessExchange}). The
 * handlers need only this much of HTTP, so an in-process client skips the socket, the HTTP codec
 * and TLS while getting the same answers. Not thread-safe: used on the Vert.x context the request
 * runs on.
 */
abstract class Exchange {
  // The request.

  abstract HttpMethod method();

  /** The request path, not decoded. */
  abstract String path();

  /** The raw query, or null without one. */
  abstract String query();

  /**
   * The decoded query parameters.
   *
   * @throws IllegalArgumentException when the query does not decode
   */
  abstract MultiMap params();

  abstract MultiMap headers();

  final String getHeader(String name) {
    return headers().get(name);
  }

  final String getParam(String name) {
    return params().get(name);
  }

  /** Whether the request shares its transport with others (HTTP/2): no Connection header then. */
  abstract boolean multiplexed();

  /**
   * The whole body when it is already here (in-process), else null: read it with {@link #readBody}.
   */
  abstract Buffer completeBody();

  /** Streams the body: {@code chunk} for each part, then {@code end}. */
  abstract void readBody(Handler<Buffer> chunk, Handler<Throwable> error, Handler<Void> end);

  /** Whether the whole request (its body included) has arrived. */
  abstract boolean requestEnded();

  /** Answers {@code Expect: 100-continue}. */
  abstract void writeContinue();

  /** Upgrades to a WebSocket carrying watch events; fails where the transport has none. */
  abstract Future<WatchSession.Sink> webSocket();

  // The response.

  abstract int getStatusCode();

  abstract Exchange setStatusCode(int code);

  abstract Exchange putHeader(String name, String value);

  /** The response headers, for headers that repeat (Warning). */
  abstract MultiMap responseHeaders();

  /** Streams the body in chunks whose total is not known in advance. */
  abstract Exchange setChunked(boolean chunked);

  abstract void write(Buffer chunk);

  abstract void end(Buffer body);

  final void end(String body) {
    end(Buffer.buffer(body));
  }

  abstract void end();

  abstract boolean ended();

  /** Whether the peer went away. */
  abstract boolean closed();

  abstract boolean headWritten();

  /** Abandons a response already started: the client sees it fail. */
  abstract void reset();

  /** Whether written chunks wait for a slow reader beyond the transport's limit. */
  abstract boolean writeQueueFull();

  abstract void drainHandler(Runnable r);

  /** Runs {@code r} when the peer goes away before the response ends. */
  abstract void closeHandler(Runnable r);

  /** Runs {@code r} once the whole response has been written. */
  abstract void bodyEndHandler(Runnable r);
}
