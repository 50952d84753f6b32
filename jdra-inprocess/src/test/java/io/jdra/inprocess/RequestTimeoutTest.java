package io.jdra.inprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Utils;
import io.jdra.apiserver.http.InProcessCall;
import io.jdra.apiserver.http.InProcessRequest;
import io.jdra.apiserver.http.InProcessResponse;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * In-process clients time their requests themselves ({@link RequestDeadlines}) and fail them as
 * fabric8's own timer does: compared with clients that leave the timeouts to fabric8, against a
 * stand-in server that answers when the test says so.
 */
class RequestTimeoutTest {
  private static final String URL = "https://in-process";
  private static final String CONFIG_MAP =
      "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\","
          + "\"namespace\":\"default\"}}";

  private final List<KubernetesClient> clients = new ArrayList<>();

  @AfterEach
  void close() {
    clients.forEach(KubernetesClient::close);
  }

  @Test
  void aRequestWithoutAnswerFailsAsFabric8sTimerFailsIt() throws Exception {
    Server silent = new Server();
    KubernetesClient byFabric8 = client(silent, null, 100, 0);
    KubernetesClient own = client(silent, RequestDeadlines.shared(), 100, 0);

    Failure fabric8Get = failure(() -> byFabric8.configMaps().withName("x").get());
    Failure ownGet = failure(() -> own.configMaps().withName("x").get());
    assertThat(ownGet.chain()).isEqualTo(fabric8Get.chain()).last().asString().contains("Timeout");
    // The timeout plus as much again; never earlier.
    assertThat(fabric8Get.millis()).isGreaterThanOrEqualTo(200);
    assertThat(ownGet.millis()).isGreaterThanOrEqualTo(200);

    // Through the HTTP client: the same throwable reaches the stages of its futures.
    for (boolean bytes : new boolean[] {true, false}) {
      Failure fabric8Raw = rawFailure(byFabric8.getHttpClient(), bytes);
      Failure ownRaw = rawFailure(own.getHttpClient(), bytes);
      assertThat(ownRaw.chain()).isEqualTo(fabric8Raw.chain());
      assertThat(ownRaw.millis()).isGreaterThanOrEqualTo(200);
      if (bytes) {
        assertThat(ownRaw.chain()).containsExactly(TimeoutException.class.getName() + ": null");
      }
    }
  }

  @Test
  void eachRetryIsTimedFromItsOwnSending() throws Exception {
    // fabric8 times each attempt of its retries (AsyncUtils.retryWithExponentialBackoff): the
    // first attempt answered 503, the retry's time starts when it is sent.
    RequestDeadlines deadlines = new RequestDeadlines(false);
    long limit = TimeUnit.MILLISECONDS.toNanos(200);
    Server server = new Server();
    KubernetesClient c = client(server, deadlines, 100, 1);
    CompletableFuture<Throwable> failed = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(() -> failed.complete(catchThrowable(() -> c.configMaps().withName("x").get())));
    Held first = server.requests.poll(10, TimeUnit.SECONDS);
    long answered = System.nanoTime();
    first.answer(503, "{}");
    assertThat(server.requests.poll(10, TimeUnit.SECONDS)).as("the retry").isNotNull();
    // The first attempt's time is over, the retry's is not.
    assertThat(deadlines.sweep(answered + limit)).isEqualTo(1);
    assertThat(failed).isNotDone();
    assertThat(deadlines.sweep(System.nanoTime() + limit)).isZero();
    assertThat(chain(failed.get(10, TimeUnit.SECONDS)))
        .containsExactly(
            "io.fabric8.kubernetes.client.KubernetesClientException: null",
            "java.util.concurrent.TimeoutException: null");
  }

  @Test
  void requestsInFlightHaveNoFabric8TimerTask() throws Exception {
    int n = 20;
    RequestDeadlines deadlines = new RequestDeadlines(false);
    for (RequestDeadlines mode : new RequestDeadlines[] {null, deadlines}) {
      Server server = new Server();
      HttpClient http = client(server, mode, 10_000, 0).getHttpClient();
      int before = fabric8TimerTasks();
      List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        sent.add(http.sendAsync(get(http, 10_000), String.class));
      }
      int during = fabric8TimerTasks() - before;
      if (mode == null) {
        assertThat(during).as("fabric8's timer tasks").isGreaterThanOrEqualTo(n);
      } else {
        assertThat(during).as("fabric8's timer tasks with own timing").isLessThanOrEqualTo(0);
      }
      for (int i = 0; i < n; i++) {
        server.requests.poll(10, TimeUnit.SECONDS).answer(200, CONFIG_MAP);
      }
      for (CompletableFuture<HttpResponse<String>> f : sent) {
        assertThat(f.get(10, TimeUnit.SECONDS).body()).isEqualTo(CONFIG_MAP);
      }
    }
    // Answered in time: nothing left to time, nothing failed.
    assertThat(deadlines.sweep(System.nanoTime() + TimeUnit.HOURS.toNanos(1))).isZero();
  }

  @Test
  void derivedClientsKeepTheirTimeouts() throws Exception {
    RequestDeadlines deadlines = new RequestDeadlines(false);
    Server silent = new Server();
    KubernetesClient base = client(silent, deadlines, 3_600_000, 0);
    KubernetesClient derived =
        (KubernetesClient)
            base.newClient(new RequestConfigBuilder().withRequestTimeout(50).build());
    CompletableFuture<ConfigMap> byDerived =
        CompletableFuture.supplyAsync(() -> derived.configMaps().withName("x").get());
    HttpClient rebuilt = base.getHttpClient().newBuilder().build();
    CompletableFuture<HttpResponse<String>> byRebuilt =
        rebuilt.sendAsync(get(rebuilt, 50), String.class);
    CompletableFuture<ConfigMap> byBase =
        CompletableFuture.supplyAsync(() -> base.configMaps().withName("x").get());
    for (int i = 0; i < 3; i++) {
      assertThat(silent.requests.poll(10, TimeUnit.SECONDS)).isNotNull();
    }
    // 100 ms on: the two 50 ms requests fail (50 ms and as much again), the base's hour goes on.
    assertThat(deadlines.sweep(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100)))
        .isEqualTo(1);
    assertThat(catchThrowable(() -> byDerived.get(10, TimeUnit.SECONDS)))
        .rootCause()
        .isInstanceOf(TimeoutException.class);
    assertThat(catchThrowable(() -> byRebuilt.get(10, TimeUnit.SECONDS)))
        .cause()
        .isInstanceOf(TimeoutException.class);
    assertThat(byBase).isNotDone();
    assertThat(deadlines.sweep(System.nanoTime() + TimeUnit.HOURS.toNanos(2))).isZero();
    assertThat(catchThrowable(() -> byBase.get(10, TimeUnit.SECONDS)))
        .rootCause()
        .isInstanceOf(TimeoutException.class);
  }

  @Test
  void anAnswerAfterTheTimeoutIsRefused() throws Exception {
    RequestDeadlines deadlines = new RequestDeadlines(false);
    Server silent = new Server();
    HttpClient http = client(silent, deadlines, 100, 0).getHttpClient();
    CompletableFuture<HttpResponse<String>> sent = http.sendAsync(get(http, 100), String.class);
    Held held = silent.requests.poll(10, TimeUnit.SECONDS);
    assertThat(deadlines.sweep(System.nanoTime())).as("not before its time").isEqualTo(1);
    assertThat(sent).isNotDone();
    deadlines.sweep(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200));
    assertThat(catchThrowable(() -> sent.get(10, TimeUnit.SECONDS)))
        .cause()
        .isInstanceOf(TimeoutException.class);
    StandIn call = held.answer(200, CONFIG_MAP);
    assertThat(call.cancelled).as("the server sees its peer leave").isTrue();
  }

  @Test
  void fabric8SeesTheRequestWithoutTimeoutAndSendsItWithIt() throws Exception {
    HttpClient http = client(new Server(), null, 100, 0).getHttpClient();
    io.fabric8.kubernetes.client.http.StandardHttpRequest original =
        (io.fabric8.kubernetes.client.http.StandardHttpRequest)
            http.newHttpRequestBuilder()
                .uri(URL + "/api/v1/namespaces/default/configmaps")
                .post("application/json", CONFIG_MAP.getBytes(StandardCharsets.UTF_8))
                .header("X-A", "b")
                .timeout(7, TimeUnit.SECONDS)
                .build();
    UntimedRequest untimed = new UntimedRequest(original);
    assertThat(untimed.getTimeout()).isNull();
    io.fabric8.kubernetes.client.http.StandardHttpRequest copy = untimed.newBuilder().build();
    for (var r : List.of(untimed, copy)) {
      assertThat(r.uri()).isEqualTo(original.uri());
      assertThat(r.method()).isEqualTo(original.method());
      assertThat(r.headers()).isEqualTo(original.headers());
      assertThat(r.body()).isSameAs(original.body());
      assertThat(r.bodyString()).isEqualTo(original.bodyString());
      assertThat(r.getContentType()).isEqualTo(original.getContentType());
      assertThat(r.isExpectContinue()).isEqualTo(original.isExpectContinue());
      assertThat(r.isForStreaming()).isEqualTo(original.isForStreaming());
    }
    assertThat(untimed.id()).isEqualTo(original.id());
    assertThat(copy.getTimeout()).isEqualTo(original.getTimeout());
  }

  @Test
  void theTimeLimitIsFabric8s() {
    assertThat(UntimedRequest.timeLimitNanos(null)).isZero();
    assertThat(UntimedRequest.timeLimitNanos(java.time.Duration.ZERO)).isZero();
    assertThat(UntimedRequest.timeLimitNanos(java.time.Duration.ofMillis(-5))).isZero();
    assertThat(UntimedRequest.timeLimitNanos(java.time.Duration.ofNanos(400_000))).isZero();
    assertThat(UntimedRequest.timeLimitNanos(java.time.Duration.ofNanos(1_500_000)))
        .isEqualTo(2_000_000);
    assertThat(UntimedRequest.timeLimitNanos(java.time.Duration.ofSeconds(2)))
        .isEqualTo(4_000_000_000L);
    assertThat(UntimedRequest.timeLimitNanos(java.time.Duration.ofSeconds(10)))
        .isEqualTo(15_000_000_000L);
  }

  private KubernetesClient client(
      Server server, RequestDeadlines deadlines, int timeoutMillis, int retries) {
    Config config =
        new ConfigBuilder()
            .withMasterUrl(URL)
            .withNamespace("default")
            .withRequestTimeout(timeoutMillis)
            .withRequestRetryBackoffLimit(retries)
            .withRequestRetryBackoffInterval(10)
            .withAutoConfigure(false)
            .build();
    KubernetesClient c =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientFactory(new InProcessHttpClientFactory(server, deadlines))
            .build();
    clients.add(c);
    return c;
  }

  private static HttpRequest get(HttpClient http, long timeoutMillis) {
    return http.newHttpRequestBuilder()
        .uri(URL + "/api/v1/namespaces/default/configmaps/x")
        .timeout(timeoutMillis, TimeUnit.MILLISECONDS)
        .build();
  }

  /** A failure: its causes ("class: message", outermost first) and when it came. */
  private record Failure(List<String> chain, long millis) {}

  private static Failure failure(Runnable request) {
    long start = System.nanoTime();
    Throwable t = catchThrowable(request::run);
    return new Failure(chain(t), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
  }

  /**
   * What a caller of the HTTP client's future sees (the throwable handed to its stages), of {@code
   * consumeBytes} or of {@code sendAsync}.
   */
  private static Failure rawFailure(HttpClient http, boolean bytes) throws Exception {
    long start = System.nanoTime();
    CompletableFuture<? extends HttpResponse<?>> sent =
        bytes
            ? http.consumeBytes(get(http, 100), (data, body) -> body.consume())
            : http.sendAsync(get(http, 100), String.class);
    Throwable t = sent.handle((r, e) -> e).get(10, TimeUnit.SECONDS);
    return new Failure(chain(t), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
  }

  private static List<String> chain(Throwable t) {
    List<String> out = new ArrayList<>();
    for (Throwable c = t; c != null; c = c.getCause()) {
      out.add(c.getClass().getName() + ": " + c.getMessage());
    }
    return out;
  }

  /** Tasks queued on fabric8's shared scheduler (its request timers); 0 when it has no thread. */
  private static int fabric8TimerTasks() throws ReflectiveOperationException {
    Field shared = Utils.class.getDeclaredField("SHARED_SCHEDULER");
    shared.setAccessible(true);
    Object scheduler = shared.get(null);
    Field executor = scheduler.getClass().getDeclaredField("executor");
    executor.setAccessible(true);
    synchronized (scheduler) {
      ScheduledThreadPoolExecutor e = (ScheduledThreadPoolExecutor) executor.get(scheduler);
      return e == null ? 0 : e.getQueue().size();
    }
  }

  /** A stand-in API server: keeps every request for the test to answer (or not). */
  private static final class Server implements InProcessHttpClientFactory.Sender {
    final BlockingQueue<Held> requests = new LinkedBlockingQueue<>();

    @Override
    public void send(InProcessRequest request, InProcessResponse response) {
      requests.add(new Held(request, response));
    }
  }

  private record Held(InProcessRequest request, InProcessResponse response) {
    StandIn answer(int status, String json) {
      StandIn call = new StandIn(response, json.getBytes(StandardCharsets.UTF_8));
      response.head(status, Map.of("Content-Type", List.of("application/json")), call);
      return call;
    }
  }

  /** The server's side of one answer: the body on the first ask, its end on the second. */
  private static final class StandIn implements InProcessCall {
    private final InProcessResponse response;
    private final byte[] body;
    private int asked;
    volatile boolean cancelled;

    StandIn(InProcessResponse response, byte[] body) {
      this.response = response;
      this.body = body;
    }

    @Override
    public synchronized void request() {
      asked++;
      if (asked == 1) {
        response.chunks(List.of(ByteBuffer.wrap(body)));
      } else if (asked == 2) {
        response.end();
      }
    }

    @Override
    public void cancel() {
      cancelled = true;
    }
  }
}
