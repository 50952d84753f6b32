package io.jdra.httpclient;

import io.fabric8.kubernetes.client.http.WebSocket;
import io.vertx.core.Vertx;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * fabric8's WebSocket builder whose {@link #buildAsync} runs on an event loop of the client's
 * Vert.x. There Vert.x binds the upgrade to the calling context, whose thread is busy with this
 * task until fabric8 has registered its completion handler, so the handler that installs the
 * socket's message handlers always runs before the socket delivers its first frame.
 */
final class EventLoopWebSocketBuilder implements WebSocket.Builder {
  /** The close code sent to a socket that opened after its caller gave up waiting for it. */
  static final int NORMAL_CLOSURE = 1000;

  private final WebSocket.Builder delegate;
  private final Vertx vertx;

  EventLoopWebSocketBuilder(WebSocket.Builder delegate, Vertx vertx) {
    this.delegate = delegate;
    this.vertx = vertx;
  }

  @Override
  public CompletableFuture<WebSocket> buildAsync(WebSocket.Listener listener) {
    CompletableFuture<WebSocket> result = new CompletableFuture<>();
    vertx.runOnContext(v -> open(listener, result));
    return result;
  }

  private void open(WebSocket.Listener listener, CompletableFuture<WebSocket> result) {
    if (result.isDone()) {
      return; // cancelled before the event loop got to it
    }
    CompletableFuture<WebSocket> opening;
    try {
      opening = delegate.buildAsync(listener);
    } catch (RuntimeException e) {
      result.completeExceptionally(e);
      return;
    }
    opening.whenComplete((socket, failure) -> {
      if (failure != null) {
        result.completeExceptionally(failure);
      } else if (!result.complete(socket)) {
        socket.sendClose(NORMAL_CLOSURE, null); // nobody is waiting for it any more
      }
    });
  }

  @Override
  public WebSocket.Builder subprotocol(String protocol) {
    delegate.subprotocol(protocol);
    return this;
  }

  @Override
  public WebSocket.Builder header(String name, String value) {
    delegate.header(name, value);
    return this;
  }

  @Override
  public WebSocket.Builder setHeader(String name, String value) {
    delegate.setHeader(name, value);
    return this;
  }

  @Override
  public WebSocket.Builder uri(URI uri) {
    delegate.uri(uri);
    return this;
  }

  @Override
  public WebSocket.Builder connectTimeout(long amount, TimeUnit unit) {
    delegate.connectTimeout(amount, unit);
    return this;
  }
}
