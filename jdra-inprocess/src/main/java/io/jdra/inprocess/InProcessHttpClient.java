package io.jdra.inprocess;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpClient;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.StandardWebSocketBuilder;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.http.WebSocketResponse;
import io.fabric8.kubernetes.client.http.WebSocketUpgradeResponse;
import io.jdra.apiserver.http.InProcessRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A fabric8 HTTP client whose requests go to the embedded API server in memory: path, query,
 * headers and body as fabric8 built them (its interceptors add the Authorization header, so the
 * server sees the client's user), the answer's status, headers and body streamed back as the client
 * reads it. A watch fabric8 opens as a WebSocket gets the server's HTTP watch stream with each
 * event as a message ({@link WatchSocket}); other WebSockets (exec, attach, port-forward) are
 * answered as a server without WebSockets answers them (200). A watch over HTTP streaming ({@code
 * onlyHttpWatches}) works too. Response callbacks run on a server event loop, as fabric8's Vert.x
 * client runs them on its own loop: nothing may block there.
 *
 * <p>Request timeouts (fabric8 gives each request its operation's {@code requestTimeout}) fail a
 * request as fabric8 fails it, with a {@link java.util.concurrent.TimeoutException} after the
 * timeout plus as much again (at most 5 s more) without an answer, for each attempt of fabric8's
 * retries; but fabric8's timer task per request and the two exceptions its cancellation builds are
 * replaced by {@link RequestDeadlines} (fabric8 sees the request without its timeout, {@link
 * UntimedRequest}). One difference: a request an interceptor sends again (after a refused token) is
 * timed from its own sending, where fabric8 times both from the first. A watch's WebSocket
 * handshake (one per watch) keeps fabric8's timer. Thread-safe.
 */
final class InProcessHttpClient
    extends StandardHttpClient<
        InProcessHttpClient, InProcessHttpClientFactory, InProcessHttpClientBuilder> {
  private final InProcessHttpClientFactory.Sender sender;
  private final RequestDeadlines deadlines;

  /**
   * @param deadlines times requests, or null to leave their timeouts to fabric8
   */
  InProcessHttpClient(
      InProcessHttpClientBuilder builder,
      AtomicBoolean closed,
      InProcessHttpClientFactory.Sender sender,
      RequestDeadlines deadlines) {
    super(builder, closed);
    this.sender = sender;
    this.deadlines = deadlines;
  }

  @Override
  public CompletableFuture<WebSocketResponse> buildWebSocketDirect(
      StandardWebSocketBuilder builder, WebSocket.Listener listener) {
    if (isClosed()) {
      return CompletableFuture.failedFuture(new IOException("client is closed"));
    }
    StandardHttpRequest request = builder.asHttpRequest();
    if (builder.getSubprotocol() == null && ResponseBody.isWatch(request)) {
      WatchSocket socket = new WatchSocket(request, listener);
      sender.send(toInProcess(request), socket);
      return socket.response();
    }
    WebSocketUpgradeResponse refused = new WebSocketUpgradeResponse(request, 200);
    return CompletableFuture.completedFuture(
        new WebSocketResponse(
            refused, new IOException("in-process clients open WebSockets only for watches")));
  }

  @Override
  public CompletableFuture<HttpResponse<AsyncBody>> consumeBytes(
      HttpRequest request, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    if (deadlines == null
        || !(request instanceof StandardHttpRequest timed)
        || UntimedRequest.timeLimitNanos(timed.getTimeout()) == 0) {
      return super.consumeBytes(request, consumer);
    }
    return asFabric8Fails(super.consumeBytes(new UntimedRequest(timed), consumer));
  }

  /**
   * The answer of fabric8's retry loop, failed as fabric8's own timer fails it: with the {@link
   * java.util.concurrent.TimeoutException} itself, where a timeout of {@link #consumeBytesDirect}
   * reaches the loop wrapped by the interceptors' stages. An answer that comes after the caller
   * completed the result is cancelled, as fabric8 cancels it.
   */
  private static CompletableFuture<HttpResponse<AsyncBody>> asFabric8Fails(
      CompletableFuture<HttpResponse<AsyncBody>> answer) {
    CompletableFuture<HttpResponse<AsyncBody>> result = new CompletableFuture<>();
    answer.whenComplete((r, t) -> {
      if (t == null) {
        if (!result.complete(r)) {
          r.body().cancel();
        }
      } else if (t instanceof CompletionException c && RequestDeadlines.isExpiry(c.getCause())) {
        result.completeExceptionally(c.getCause());
      } else {
        result.completeExceptionally(t);
      }
    });
    return result;
  }

  @Override
  public CompletableFuture<HttpResponse<AsyncBody>> consumeBytesDirect(
      StandardHttpRequest request, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    if (isClosed()) {
      return CompletableFuture.failedFuture(new IOException("client is closed"));
    }
    ResponseBody body = new ResponseBody(request, consumer);
    long limit = deadlines == null ? 0 : UntimedRequest.timeLimitNanos(request.getTimeout());
    if (limit > 0) {
      body.timeWith(deadlines, limit);
    }
    sender.send(toInProcess(request), body);
    return body.response();
  }

  @Override
  protected void doClose() {
    // Nothing to release: requests in flight finish, watches end when their consumers cancel.
  }

  static InProcessRequest toInProcess(StandardHttpRequest request) {
    URI uri = request.uri();
    Map<String, List<String>> headers = new LinkedHashMap<>(request.headers());
    if (request.getContentType() != null) {
      headers.put("Content-Type", List.of(request.getContentType()));
    }
    return new InProcessRequest(
        request.method(), uri.getRawPath(), uri.getRawQuery(), headers, body(request));
  }

  private static byte[] body(StandardHttpRequest request) {
    StandardHttpRequest.BodyContent content = request.body();
    if (content == null) {
      return null;
    }
    if (content instanceof StandardHttpRequest.StringBodyContent s) {
      return s.getContent().getBytes(StandardCharsets.UTF_8);
    }
    if (content instanceof StandardHttpRequest.ByteArrayBodyContent b) {
      return b.getContent();
    }
    if (content instanceof StandardHttpRequest.InputStreamBodyContent in) {
      try (InputStream s = in.getContent()) {
        return s.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException("read request body of " + request.uri(), e);
      }
    }
    throw new IllegalArgumentException(
        "unsupported request body " + content.getClass().getName() + " for " + request.uri());
  }
}
