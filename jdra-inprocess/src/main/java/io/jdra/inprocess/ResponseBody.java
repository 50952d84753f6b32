package io.jdra.inprocess;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpHeaders;
import io.jdra.apiserver.http.InProcessCall;
import io.jdra.apiserver.http.InProcessResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * One in-process answer as fabric8 reads it: the response completes with the head, the body goes to
 * fabric8's consumer a batch per {@link #consume()}, and {@link #cancel()} makes the server see its
 * peer leave (a watch ends there). Watch streams reach fabric8 as ASCII ({@link AsciiJson}). With a
 * timeout ({@link #timeWith}) the response fails when its head does not come in time; a head that
 * comes after that is refused (the server sees its peer leave).
 */
final class ResponseBody implements AsyncBody, InProcessResponse, RequestDeadlines.Timed {
  private final HttpRequest request;
  private final AsyncBody.Consumer<List<ByteBuffer>> consumer;
  private final AsciiJson ascii;
  private final CompletableFuture<HttpResponse<AsyncBody>> response = new CompletableFuture<>();
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private volatile InProcessCall call;
  private RequestDeadlines.Deadline deadline;

  ResponseBody(HttpRequest request, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    this.request = request;
    this.consumer = consumer;
    this.ascii = isWatch(request) ? new AsciiJson() : null;
  }

  /**
   * Whether this is a watch: fabric8 reads watch streams with a reader that needs ASCII input
   * ({@link AsciiJson}).
   */
  static boolean isWatch(HttpRequest request) {
    String query = request.uri().getRawQuery();
    return query != null && (query.contains("watch=true") || query.contains("watch=1"));
  }

  CompletableFuture<HttpResponse<AsyncBody>> response() {
    return response;
  }

  /** Fails the response if its head has not come {@code timeoutNanos} from now; before sending. */
  void timeWith(RequestDeadlines deadlines, long timeoutNanos) {
    deadline = deadlines.add(this, timeoutNanos);
  }

  @Override
  public void head(int status, Map<String, List<String>> headers, InProcessCall call) {
    this.call = call;
    if (deadline != null) {
      deadline.clear();
    }
    if (!response.complete(new Head(headers, status, this, request))) {
      call.cancel(); // timed out: nobody reads this answer
    }
  }

  @Override
  public boolean answered() {
    return response.isDone();
  }

  @Override
  public void expire(TimeoutException timeout) {
    response.completeExceptionally(timeout);
  }

  @Override
  public void chunks(List<ByteBuffer> data) {
    try {
      consumer.consume(ascii == null ? data : ascii.escape(data), this);
    } catch (Exception e) {
      call.cancel();
      done.completeExceptionally(e);
    }
  }

  @Override
  public void end() {
    done.complete(null);
  }

  @Override
  public void failed(Throwable cause) {
    if (!response.completeExceptionally(cause)) {
      done.completeExceptionally(cause);
    }
  }

  @Override
  public void consume() {
    call.request();
  }

  @Override
  public CompletableFuture<Void> done() {
    return done;
  }

  @Override
  public void cancel() {
    call.cancel();
    done.cancel(false);
  }

  /** The status line and headers with this body. */
  private static final class Head extends StandardHttpHeaders implements HttpResponse<AsyncBody> {
    private final int code;
    private final AsyncBody body;
    private final HttpRequest request;

    Head(Map<String, List<String>> headers, int code, AsyncBody body, HttpRequest request) {
      super(headers);
      this.code = code;
      this.body = body;
      this.request = request;
    }

    @Override
    public int code() {
      return code;
    }

    @Override
    public AsyncBody body() {
      return body;
    }

    @Override
    public HttpRequest request() {
      return request;
    }

    @Override
    public Optional<HttpResponse<?>> previousResponse() {
      return Optional.empty();
    }
  }
}
