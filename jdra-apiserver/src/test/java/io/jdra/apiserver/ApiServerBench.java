package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Load numbers (run with {@code -Djdra.bench=true}): creates/s of ~1 KB ResourceClaims with many
 * requests in flight over few connections (in memory and durable), list of 50,000 objects, and
 * event latency seen by 100 watchers.
 */
class ApiServerBench {
  static final int CLAIMS = Integer.getInteger("jdra.bench.claims", 50_000);

  static String claim(int i) {
    String pad = "x".repeat(600);
    return "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c"
        + i
        + "\",\"labels\":{\"app\":\"bench\",\"pad\":\"p\"},\"annotations\":{\"pad\":\""
        + pad
        + "\"}},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\",\"exactly\":{"
        + "\"deviceClassName\":\"gpu.example.com\",\"allocationMode\":\"ExactCount\",\"count\":1}}]}}}";
  }

  @Test
  void inMemory() throws Exception {
    Assumptions.assumeTrue(
        Boolean.getBoolean("jdra.bench"), "benchmark: run with -Djdra.bench=true");
    run(ApiServerOptions.inMemory(), "in memory", CLAIMS);
  }

  @Test
  void durable() throws Exception {
    Assumptions.assumeTrue(
        Boolean.getBoolean("jdra.bench"), "benchmark: run with -Djdra.bench=true");
    Path dir = Files.createTempDirectory("jdra-bench");
    run(ApiServerOptions.inMemory().withDataDir(dir), "durable", CLAIMS / 5);
  }

  @Test
  void fabric8Client() throws Exception {
    Assumptions.assumeTrue(
        Boolean.getBoolean("jdra.bench"), "benchmark: run with -Djdra.bench=true");
    try (EmbeddedApiServer s = EmbeddedApiServer.start(ApiServerOptions.inMemory());
        io.fabric8.kubernetes.client.KubernetesClient c = ServerFixture.client(s)) {
      int threads = 8;
      int perThread = CLAIMS / 40;
      for (int round = 0; round < 2; round++) {
        String prefix = "r" + round + "-";
        java.util.concurrent.ExecutorService pool =
            java.util.concurrent.Executors.newFixedThreadPool(threads);
        long t0 = System.nanoTime();
        List<java.util.concurrent.Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          fs.add(
              pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                  c.resource(CrudTest.claim(prefix + thread + "-" + i)).create();
                }
              }));
        }
        for (var f : fs) {
          f.get();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        System.out.printf(
            "[bench] fabric8 client, %d threads: %d creates in %.2fs = %.0f creates/s%n",
            threads, threads * perThread, secs, threads * perThread / secs);
      }
    }
  }

  private void run(ApiServerOptions o, String label, int n) throws Exception {
    try (EmbeddedApiServer s = EmbeddedApiServer.start(o)) {
      Vertx vertx = Vertx.vertx();
      HttpClient http =
          vertx.createHttpClient(
              new HttpClientOptions()
                  .setDefaultHost(s.url().getHost())
                  .setDefaultPort(s.url().getPort())
                  .setPipelining(true)
                  .setPipeliningLimit(64)
                  .setKeepAlive(true),
              new PoolOptions().setHttp1MaxSize(8));
      createAll(http, Integer.getInteger("jdra.bench.warmup", n / 10), "warm");
      long heap0 = usedHeap();
      long t0 = System.nanoTime();
      createAll(http, n, "");
      double secs = (System.nanoTime() - t0) / 1e9;
      System.out.printf(
          "[bench] %s: %d creates in %.2fs = %.0f creates/s%n", label, n, secs, n / secs);
      long perObject = (usedHeap() - heap0) / n;
      int json =
          get(http, "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims/c1").length();
      System.out.printf(
          "[bench] %s: heap per stored object %d bytes, its JSON %d bytes%n",
          label, perObject, json);
      if (o.dataDir() == null) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
          long l0 = System.nanoTime();
          Buffer b = get(http, "/apis/resource.k8s.io/v1/resourceclaims");
          best = Math.min(best, System.nanoTime() - l0);
          assertThat(b.length()).isGreaterThan(n * 500);
        }
        System.out.printf("[bench] list of %d objects: best %.1f ms%n", n + n / 10, best / 1e6);
        watchLatency(s, http);
      }
      vertx.close();
    }
  }

  private static long usedHeap() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }

  private static void createAll(HttpClient http, int n, String prefix) throws Exception {
    Semaphore inFlight = new Semaphore(256);
    CountDownLatch done = new CountDownLatch(n);
    AtomicInteger failures = new AtomicInteger();
    for (int i = 0; i < n; i++) {
      inFlight.acquire();
      String body = claim(i).replace("\"name\":\"c" + i, "\"name\":\"c" + prefix + i);
      http.request(
              new RequestOptions()
                  .setMethod(HttpMethod.POST)
                  .setURI("/apis/resource.k8s.io/v1/namespaces/default/resourceclaims")
                  .putHeader("Content-Type", "application/json"))
          .compose(req -> req.send(Buffer.buffer(body)))
          .compose(resp -> {
            if (resp.statusCode() != 201) {
              failures.incrementAndGet();
            }
            return resp.body();
          })
          .onComplete(ar -> {
            if (ar.failed()) {
              failures.incrementAndGet();
            }
            inFlight.release();
            done.countDown();
          });
    }
    assertThat(done.await(300, TimeUnit.SECONDS)).isTrue();
    assertThat(failures.get()).isZero();
  }

  private static Buffer get(HttpClient http, String uri) throws Exception {
    Future<Buffer> f =
        http.request(HttpMethod.GET, uri).compose(r -> r.send()).compose(r -> r.body());
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  private static void watchLatency(EmbeddedApiServer s, HttpClient unused) throws Exception {
    Vertx vertx = Vertx.vertx();
    HttpClient http =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setDefaultHost(s.url().getHost())
                .setDefaultPort(s.url().getPort()),
            new PoolOptions().setHttp1MaxSize(128));
    int watchers = 100;
    int events = 50;
    List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
    long[] sent = new long[events];
    CountDownLatch started = new CountDownLatch(watchers);
    CountDownLatch received = new CountDownLatch(watchers * events);
    String rv = Long.toString(s.currentResourceVersion());
    for (int w = 0; w < watchers; w++) {
      http.request(
              HttpMethod.GET,
              "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + rv)
          .compose(r -> r.send())
          .onSuccess(resp -> {
            started.countDown();
            resp.handler(lineHandler(sent, latencies, received));
          });
    }
    assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
    Thread.sleep(200);
    java.net.http.HttpClient jc = java.net.http.HttpClient.newHttpClient();
    for (int i = 0; i < events; i++) {
      sent[i] = System.nanoTime();
      jc.send(
          java.net.http.HttpRequest.newBuilder(
                  java.net.URI.create(s.url() + "/api/v1/namespaces/default/configmaps"))
              .header("Content-Type", "application/json")
              .POST(
                  java.net.http.HttpRequest.BodyPublishers.ofString(
                      "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"w"
                          + i
                          + "\"}}"))
              .build(),
          java.net.http.HttpResponse.BodyHandlers.discarding());
      Thread.sleep(20);
    }
    assertThat(received.await(30, TimeUnit.SECONDS)).isTrue();
    List<Long> sorted = new ArrayList<>(latencies);
    Collections.sort(sorted);
    System.out.printf(
        "[bench] watch latency over %d watchers x %d events: p50 %.2f ms, p99 %.2f ms%n",
        watchers,
        events,
        sorted.get(sorted.size() / 2) / 1e6,
        sorted.get((int) (sorted.size() * 0.99)) / 1e6);
    vertx.close();
  }

  private static io.vertx.core.Handler<Buffer> lineHandler(
      long[] sent, List<Long> latencies, CountDownLatch received) {
    return io.vertx.core.parsetools.RecordParser.newDelimited(
        "\n",
        line -> {
          long now = System.nanoTime();
          String l = line.toString();
          int at = l.indexOf("\"name\":\"w");
          if (at >= 0) {
            int end = l.indexOf('"', at + 9);
            int i = Integer.parseInt(l.substring(at + 9, end));
            latencies.add(now - sent[i]);
            received.countDown();
          }
        });
  }
}
