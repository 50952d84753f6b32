package io.jdra.runtime.client;

import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.http.JdraInterceptorAccess;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.utils.ExponentialBackoffIntervalCalculator;
import io.fabric8.kubernetes.client.vertx.JdraVertxAccess;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends {@link ApiRequests}' requests straight through the Vert.x client under a fabric8 client,
 * with what fabric8's {@code StandardHttpClient} adds to each request and nothing else: its
 * interceptors in its order ({@code before} on every attempt: user agent and custom headers,
 * impersonation, the bearer token or basic credentials, jdra's QPS limiter; {@code afterFailure} on
 * a non-2xx answer, where the token interceptor refreshes an expired token and the request is sent
 * once more), its retries (429, 5xx and I/O failures, with the exponential backoff of the client's
 * {@link RequestConfig}; not when TLS trust failed), the request timeout as the Vert.x request
 * timeout fabric8 sets, and its fail-safe (the timeout plus at most 5 s, failing with a {@link
 * TimeoutException}).
 *
 * <p>What it leaves out is fabric8's asynchronous machinery around the exchange: a chain of futures
 * per interceptor, a scheduled timer task per attempt on a shared scheduler (a wake-up of its
 * thread, then a cancel), the answer's bytes handed over chunk by chunk, copied and joined, and
 * completion through further stages. Here the caller's thread runs the interceptors and waits; the
 * event loop sends, reads the answer into one buffer and completes the caller's future. An answer
 * the caller does not read (2xx for a {@code Void} resource) is not copied out of that buffer.
 *
 * <p>It uses fabric8's own Vert.x client: its HTTP/1.1 keep-alive pool, TLS material and proxy.
 * HTTP/2 is not offered: fabric8 builds its TLS context with ALPN disabled, so a second client with
 * fabric8's options and HTTP/2 switched on still negotiated HTTP/1.1 ({@code
 * ApiRequestsClientCertTest} showed it); that needs a TLS context of jdra's own. One transport per
 * fabric8 HTTP client, shared by every {@code ApiRequests} on it.
 */
final class VertxTransport {
  /** How requests are sent: through fabric8's client, or through this transport (HTTP/1.1). */
  enum Protocol {
    FABRIC8,
    HTTP_1_1
  }

  /**
   * The protocol of new transports: system property {@value #PROTOCOL_PROPERTY}: {@code http1} for
   * this transport; anything else, and the default, sends through fabric8's own path. Opt-in until
   * it measures cheaper per request than fabric8's path (docs/BENCHMARKS.md: so far within the
   * noise of a loaded machine).
   */
  static final String PROTOCOL_PROPERTY = "jdra.client.protocol";

  private static final long MAX_FAILSAFE_PAD_MILLIS = 5_000;
  private static final Map<HttpClient, VertxTransport> TRANSPORTS = new WeakHashMap<>();

  private final Protocol protocol;
  private final io.vertx.core.http.HttpClient vertx;
  private final HttpClient fabric8;
  private final List<Interceptor> interceptors;
  private final Interceptor.RequestTags tags;
  private final RequestConfig requestConfig;

  private VertxTransport(
      Protocol protocol,
      io.vertx.core.http.HttpClient vertx,
      HttpClient fabric8,
      List<Interceptor> interceptors,
      Interceptor.RequestTags tags) {
    this.protocol = protocol;
    this.vertx = vertx;
    this.fabric8 = fabric8;
    this.interceptors = interceptors;
    this.tags = tags;
    this.requestConfig = tags.getTag(RequestConfig.class);
  }

  /**
   * The transport of a fabric8 HTTP client, created on first use; null when the client is not
   * fabric8's Vert.x transport, or when it logs HTTP traffic (fabric8's logging interceptor reads
   * the answers' bodies as they stream, which only fabric8's own path feeds): callers then send
   * through fabric8.
   */
  static VertxTransport of(HttpClient fabric8) {
    synchronized (TRANSPORTS) {
      VertxTransport t = TRANSPORTS.get(fabric8);
      if (t == null && !TRANSPORTS.containsKey(fabric8)) {
        t = create(fabric8, configuredProtocol());
        TRANSPORTS.put(fabric8, t);
      }
      return t;
    }
  }

  static Protocol configuredProtocol() {
    String p = System.getProperty(PROTOCOL_PROPERTY, "");
    return switch (p) {
      case "http1" -> Protocol.HTTP_1_1;
      default -> Protocol.FABRIC8;
    };
  }

  static VertxTransport create(HttpClient fabric8, Protocol protocol) {
    io.vertx.core.http.HttpClient client = JdraVertxAccess.vertxClient(fabric8);
    List<Interceptor> interceptors = JdraInterceptorAccess.interceptors(fabric8);
    if (protocol == Protocol.FABRIC8
        || client == null
        || interceptors == null
        || !(fabric8 instanceof Interceptor.RequestTags tags)
        || logsTraffic(interceptors)) {
      return null;
    }
    return new VertxTransport(protocol, client, fabric8, interceptors, tags);
  }

  private static boolean logsTraffic(List<Interceptor> interceptors) {
    return interceptors.stream()
        .anyMatch(i -> i.getClass().getSimpleName().equals("HttpLoggingInterceptor"));
  }

  Protocol protocol() {
    return protocol;
  }

  /** A new request builder of the fabric8 client (what interceptors modify and errors name). */
  HttpRequest.Builder newRequest() {
    return fabric8.newHttpRequestBuilder();
  }

  /**
   * Sends the request and waits for its answer, with fabric8's interceptors, retries and timeouts.
   * A 2xx answer's body is read only when {@code readBody}; other answers always are.
   *
   * @throws Exception what the exchange failed with: an {@link IOException} (connection failed or
   *     closed), fabric8's fail-safe {@link TimeoutException}, the Vert.x request timeout,
   *     interruption, or what an interceptor threw
   */
  Answer send(StandardHttpRequest request, boolean readBody) throws Exception {
    ExponentialBackoffIntervalCalculator backoff =
        ExponentialBackoffIntervalCalculator.from(requestConfig);
    while (true) {
      Answer answer = null;
      Exception failure = null;
      try {
        answer = attempt(request, readBody);
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        failure = e;
      }
      if (backoff.shouldRetry()) {
        long interval = backoff.nextReconnectInterval();
        if (shouldRetry(request, answer, failure)) {
          Thread.sleep(interval);
          continue;
        }
      }
      if (failure != null) {
        throw failure;
      }
      return answer;
    }
  }

  /** fabric8's rule: 429 and 5xx answers, I/O failures other than TLS trust failures. */
  private boolean shouldRetry(HttpRequest request, Answer answer, Exception failure) {
    if (answer != null) {
      return answer.code() == 429 || answer.code() >= 500;
    }
    for (Interceptor i : interceptors) {
      i.afterConnectionFailure(request, failure);
    }
    return failure instanceof IOException && !isTlsTrustFailure(failure);
  }

  private static boolean isTlsTrustFailure(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof java.security.cert.CertificateException
          || c instanceof java.security.cert.CertPathValidatorException
          || c instanceof java.security.cert.CertPathBuilderException
          || c instanceof javax.net.ssl.SSLPeerUnverifiedException) {
        return true;
      }
    }
    return false;
  }

  /** One attempt as fabric8 makes it: interceptors before, then after a failure a resend each. */
  private Answer attempt(StandardHttpRequest original, boolean readBody) throws Exception {
    StandardHttpRequest.Builder copy = original.newBuilder();
    StandardHttpRequest request = original;
    for (Interceptor i : interceptors) {
      i.before(copy, request, tags);
      request = copy.build();
    }
    Answer answer = exchange(request, readBody);
    for (Interceptor i : interceptors) {
      if (!answer.isSuccessful()
          && Boolean.TRUE.equals(i.afterFailure((HttpRequest.Builder) copy, answer, tags).get())) {
        answer = exchange(copy.build(), readBody);
      }
    }
    return answer;
  }

  /** The request on the wire, as fabric8's Vert.x transport writes it; waits for the answer. */
  private Answer exchange(StandardHttpRequest request, boolean readBody) throws Exception {
    URI uri = request.uri();
    boolean ssl = "https".equalsIgnoreCase(uri.getScheme());
    RequestOptions options =
        new RequestOptions()
            .setMethod(HttpMethod.valueOf(request.method()))
            .setHost(uri.getHost())
            .setPort(uri.getPort() != -1 ? uri.getPort() : ssl ? 443 : 80)
            .setSsl(ssl)
            .setURI(
                uri.getRawQuery() == null
                    ? uri.getRawPath()
                    : uri.getRawPath() + "?" + uri.getRawQuery());
    request.headers().forEach((k, l) -> l.forEach(v -> options.addHeader(k, v)));
    if (request.getContentType() != null) {
      options.putHeader(HttpHeaders.CONTENT_TYPE, request.getContentType());
    }
    Duration timeout = request.getTimeout();
    boolean timed = timeout != null && timeout.toMillis() > 0;
    if (timed) {
      options.setTimeout(timeout.toMillis()); // as fabric8: connect and idle
    }
    String body =
        request.body() instanceof StandardHttpRequest.StringBodyContent s ? s.getContent() : null;
    CompletableFuture<Answer> answer = new CompletableFuture<>();
    vertx.request(
        options,
        ar -> {
          if (ar.failed()) {
            fail(answer, ar.cause());
            return;
          }
          io.vertx.core.http.HttpClientRequest req = ar.result();
          // The answer's handlers are in place before the request goes out, so that nothing of
          // the answer can arrive before they are (a listener added to send()'s future later
          // could run after the first chunks had passed).
          req.response(rar -> {
            if (rar.failed()) {
              fail(answer, rar.cause());
              return;
            }
            read(rar.result(), readBody, request)
                .onComplete(bar -> {
                  if (bar.succeeded()) {
                    answer.complete(bar.result());
                  } else {
                    fail(answer, bar.cause());
                  }
                });
          });
          if (body == null) {
            req.end();
          } else {
            req.end(Buffer.buffer(body));
          }
        });
    try {
      if (!timed) {
        return answer.get();
      }
      long millis = timeout.toMillis();
      return answer.get(millis + Math.min(millis, MAX_FAILSAFE_PAD_MILLIS), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception c ? c : e;
    } catch (TimeoutException | InterruptedException e) {
      answer.cancel(false);
      throw e;
    }
  }

  /** As fabric8's Vert.x transport: a closed connection is an I/O failure (retried). */
  private static void fail(CompletableFuture<Answer> answer, Throwable t) {
    answer.completeExceptionally(
        t instanceof HttpClosedException ? new IOException(t.getMessage(), t) : t);
  }

  private static Future<Answer> read(
      HttpClientResponse resp, boolean readBody, StandardHttpRequest request) {
    int code = resp.statusCode();
    // body() rather than end() for answers not read: it consumes the body in every state the
    // response can be in when this runs (with HTTP/2 it may have ended already).
    boolean unread = !readBody && code >= 200 && code < 300;
    return resp.body().map(b -> new Answer(code, unread ? null : b.getBytes(), request));
  }

  /** An answer: its status code and body (null if not read), as fabric8 responses for errors. */
  record Answer(int code, byte[] body, HttpRequest request)
      implements io.fabric8.kubernetes.client.http.HttpResponse<byte[]> {
    @Override
    public List<String> headers(String key) {
      return List.of();
    }

    @Override
    public Map<String, List<String>> headers() {
      return Map.of();
    }

    @Override
    public java.util.Optional<io.fabric8.kubernetes.client.http.HttpResponse<?>>
        previousResponse() {
      return java.util.Optional.empty();
    }
  }
}
