package io.jdra.httpclient;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.vertx.core.Vertx;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A fabric8 client that is fabric8's Vert.x client except that WebSockets are opened from a task on
 * {@code vertx}'s event loop (see {@link VertxClientFactory} for why). Derived clients ({@link
 * #newBuilder}) share the Vert.x and open theirs the same way. Thread-safe.
 */
final class EventLoopWebSocketClient implements HttpClient {
  private final HttpClient delegate;
  private final Vertx vertx;
  private final boolean ownsVertx;

  /**
   * @param delegate fabric8's client, whose Vert.x is {@code vertx}
   * @param ownsVertx whether closing this client closes {@code vertx} (false for derived clients)
   */
  EventLoopWebSocketClient(HttpClient delegate, Vertx vertx, boolean ownsVertx) {
    this.delegate = delegate;
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
  }

  @Override
  public WebSocket.Builder newWebSocketBuilder() {
    return new EventLoopWebSocketBuilder(delegate.newWebSocketBuilder(), vertx);
  }

  @Override
  public DerivedClientBuilder newBuilder() {
    DerivedClientBuilder derived = delegate.newBuilder();
    return new DerivedClientBuilder() {
      @Override
      public HttpClient build() {
        return new EventLoopWebSocketClient(derived.build(), vertx, false);
      }

      @Override
      public DerivedClientBuilder addOrReplaceInterceptor(String name, Interceptor interceptor) {
        derived.addOrReplaceInterceptor(name, interceptor);
        return this;
      }

      @Override
      public DerivedClientBuilder authenticatorNone() {
        derived.authenticatorNone();
        return this;
      }

      @Override
      public DerivedClientBuilder tag(Object value) {
        derived.tag(value);
        return this;
      }
    };
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, Class<T> type) {
    return delegate.sendAsync(request, type);
  }

  @Override
  public CompletableFuture<HttpResponse<AsyncBody>> consumeBytes(
      HttpRequest request, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    return delegate.consumeBytes(request, consumer);
  }

  @Override
  public HttpRequest.Builder newHttpRequestBuilder() {
    return delegate.newHttpRequestBuilder();
  }

  @Override
  public boolean isClosed() {
    return delegate.isClosed();
  }

  @Override
  public void close() {
    delegate.close();
    if (ownsVertx) {
      vertx.close();
    }
  }
}
