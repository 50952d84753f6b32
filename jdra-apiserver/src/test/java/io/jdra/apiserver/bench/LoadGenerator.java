package io.jdra.apiserver.bench;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.parsetools.RecordParser;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Load generator for a running API server (a separate process, so that the server's numbers are its
 * own): creates/s of ~1.3 KB ResourceClaims with many requests in flight over few connections, heap
 * per stored object (through {@code jcmd} on the server's pid), list time, event latency seen by
 * many watchers, and creates/s through the fabric8 client. Run by {@code scripts/bench-apiserver};
 * prints {@code [bench]} lines.
 */
public final class LoadGenerator {
  private final Args args;
  private final URI server;
  private final String token;
  private final String caPem;
  private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));

  record Args(
      Path kubeconfig,
      int claims,
      int warmup,
      int connections,
      int inFlight,
      int pipelining,
      boolean http2,
      int watchers,
      long pid,
      boolean fabric8) {
    static Args parse(String[] a) {
      Path kc = null;
      int claims = 50_000;
      int warmup = 50_000;
      int connections = 4;
      int inFlight = 256;
      int pipelining = 64;
      boolean http2 = true;
      int watchers = 100;
      long pid = 0;
      boolean fabric8 = true;
      for (int i = 0; i < a.length; i++) {
        switch (a[i]) {
          case "--kubeconfig" -> kc = Path.of(a[++i]);
          case "--claims" -> claims = Integer.parseInt(a[++i]);
          case "--warmup" -> warmup = Integer.parseInt(a[++i]);
          case "--connections" -> connections = Integer.parseInt(a[++i]);
          case "--in-flight" -> inFlight = Integer.parseInt(a[++i]);
          case "--pipelining" -> pipelining = Integer.parseInt(a[++i]);
          case "--http1" -> http2 = false;
          case "--watchers" -> watchers = Integer.parseInt(a[++i]);
          case "--pid" -> pid = Long.parseLong(a[++i]);
          case "--no-fabric8" -> fabric8 = false;
          default -> throw new IllegalArgumentException("unknown argument " + a[i]);
        }
      }
      if (kc == null) {
        throw new IllegalArgumentException("--kubeconfig FILE is required");
      }
      return new Args(
          kc, claims, warmup, connections, inFlight, pipelining, http2, watchers, pid, fabric8);
    }
  }

  LoadGenerator(Args args) throws Exception {
    this.args = args;
    JsonNode kc = YAMLMapper.builder().build().readTree(Files.readString(args.kubeconfig()));
    JsonNode cluster = kc.path("clusters").get(0).path("cluster");
    this.server = URI.create(cluster.path("server").asString());
    String ca = cluster.path("certificate-authority-data").asString("");
    this.caPem = ca.isEmpty() ? null : new String(Base64.getDecoder().decode(ca), "UTF-8");
    this.token = kc.path("users").get(0).path("user").path("token").asString("");
  }

  public static void main(String[] argv) throws Exception {
    LoadGenerator g = new LoadGenerator(Args.parse(argv));
    try {
      g.run();
    } finally {
      g.vertx.close();
    }
    System.exit(0);
  }

  private void run() throws Exception {
    HttpClient http = client(args.connections());
    creates(http, args.warmup(), "w", false);
    long heap0 = heapAfterGc();
    creates(http, args.claims(), "c", true);
    long heap1 = heapAfterGc();
    if (heap0 > 0 && heap1 > 0) {
      HttpClient single = client(1);
      int json = get(single, path("c0")).length();
      single.close();
      System.out.printf(
          "[bench] heap per stored object: %d bytes (its JSON: %d bytes)%n",
          (heap1 - heap0) / args.claims(), json);
    }
    list(http);
    watchLatency();
    if (args.fabric8()) {
      fabric8();
    }
  }

  // ---------------------------------------------------------------- clients

  private HttpClient client(int connections) {
    HttpClientOptions o =
        new HttpClientOptions()
            .setDefaultHost(server.getHost())
            .setDefaultPort(server.getPort())
            .setKeepAlive(true)
            .setPipelining(args.pipelining() > 1)
            .setPipeliningLimit(Math.max(1, args.pipelining()))
            .setMaxWaitQueueSize(-1);
    if (server.getScheme().equals("https")) {
      o.setSsl(true);
      if (io.vertx.core.net.OpenSSLEngineOptions.isAvailable()) {
        o.setSslEngineOptions(new io.vertx.core.net.OpenSSLEngineOptions());
      }
      if (caPem != null) {
        o.setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(caPem)));
      }
    }
    if (o.isSsl() && args.http2()) {
      // As client-go: HTTP/2 through ALPN, requests multiplexed over the connections.
      o.setProtocolVersion(io.vertx.core.http.HttpVersion.HTTP_2)
          .setUseAlpn(true)
          .setHttp2MultiplexingLimit(Math.max(1, args.inFlight() / connections))
          .setHttp2ConnectionWindowSize(16 << 20)
          .setInitialSettings(new io.vertx.core.http.Http2Settings().setInitialWindowSize(1 << 20));
    }
    return vertx.createHttpClient(
        o, new PoolOptions().setHttp1MaxSize(connections).setHttp2MaxSize(connections));
  }

  private RequestOptions request(HttpMethod m, String uri) {
    RequestOptions r = new RequestOptions().setMethod(m).setURI(uri);
    if (!token.isEmpty()) {
      r.putHeader("Authorization", "Bearer " + token);
    }
    return r;
  }

  private static String path(String name) {
    return "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims"
        + (name == null ? "" : "/" + name);
  }

  static byte[] claim(String name) {
    String pad = "x".repeat(600);
    return ("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":"
            + "{\"name\":\""
            + name
            + "\",\"labels\":{\"app\":\"bench\",\"pad\":\"p\"},\"annotations\":{\"pad\":\""
            + pad
            + "\"}},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\",\"exactly\":{"
            + "\"deviceClassName\":\"gpu.example.com\",\"allocationMode\":\"ExactCount\","
            + "\"count\":1}}]}}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------- creates

  private void creates(HttpClient http, int n, String prefix, boolean report) throws Exception {
    if (n == 0) {
      return;
    }
    Semaphore inFlight = new Semaphore(args.inFlight());
    CountDownLatch done = new CountDownLatch(n);
    AtomicInteger failures = new AtomicInteger();
    AtomicLong firstFailure = new AtomicLong(-1);
    long[] latency = new long[n];
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      inFlight.acquire();
      int at = i;
      long start = System.nanoTime();
      Buffer body = Buffer.buffer(claim(prefix + i));
      RequestOptions r = request(HttpMethod.POST, path(null));
      r.putHeader("Content-Type", "application/json");
      http.request(r)
          .compose(req -> req.send(body))
          .compose(resp -> {
            if (resp.statusCode() != 201) {
              failures.incrementAndGet();
              firstFailure.compareAndSet(-1, resp.statusCode());
            }
            return resp.body();
          })
          .onComplete(ar -> {
            if (ar.failed()) {
              failures.incrementAndGet();
            }
            latency[at] = System.nanoTime() - start;
            inFlight.release();
            done.countDown();
          });
    }
    if (!done.await(600, TimeUnit.SECONDS)) {
      throw new IllegalStateException("creates did not finish");
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    if (failures.get() > 0) {
      throw new IllegalStateException(
          failures.get() + " creates failed (first status " + firstFailure.get() + ")");
    }
    if (report) {
      long[] sorted = latency.clone();
      java.util.Arrays.sort(sorted);
      System.out.printf(
          "[bench] creates: %d in %.2f s = %.0f/s (%d connections, %s, %d in flight;"
              + " latency p50 %.1f ms, p99 %.1f ms)%n",
          n,
          secs,
          n / secs,
          args.connections(),
          args.http2() && server.getScheme().equals("https")
              ? "HTTP/2"
              : "HTTP/1.1 pipelining " + args.pipelining(),
          args.inFlight(),
          sorted[n / 2] / 1e6,
          sorted[(int) (n * 0.99)] / 1e6);
    }
  }

  private Buffer get(HttpClient http, String uri) throws Exception {
    return http.request(request(HttpMethod.GET, uri))
        .compose(r -> r.send())
        .compose(r -> {
          if (r.statusCode() != 200) {
            throw new IllegalStateException("GET " + uri + ": " + r.statusCode());
          }
          return r.body();
        })
        .toCompletionStage()
        .toCompletableFuture()
        .get(120, TimeUnit.SECONDS);
  }

  // ---------------------------------------------------------------- list

  private void list(HttpClient http) throws Exception {
    List<Long> times = new ArrayList<>();
    long bytes = 0;
    for (int i = 0; i < 7; i++) {
      long t0 = System.nanoTime();
      bytes = drain(http, "/apis/resource.k8s.io/v1/resourceclaims");
      times.add(System.nanoTime() - t0);
    }
    Collections.sort(times);
    System.out.printf(
        "[bench] list of %d objects (%.1f MB): best %.0f ms, median %.0f ms%n",
        args.claims() + args.warmup(),
        bytes / 1e6,
        times.get(0) / 1e6,
        times.get(times.size() / 2) / 1e6);
  }

  /** Reads a response as it arrives, counting bytes (as a streaming decoder would consume it). */
  private long drain(HttpClient http, String uri) throws Exception {
    AtomicLong bytes = new AtomicLong();
    http.request(request(HttpMethod.GET, uri))
        .compose(r -> r.send())
        .compose(r -> {
          if (r.statusCode() != 200) {
            throw new IllegalStateException("GET " + uri + ": " + r.statusCode());
          }
          r.handler(b -> bytes.addAndGet(b.length()));
          return r.end();
        })
        .toCompletionStage()
        .toCompletableFuture()
        .get(120, TimeUnit.SECONDS);
    return bytes.get();
  }

  // ---------------------------------------------------------------- watch

  private void watchLatency() throws Exception {
    int watchers = args.watchers();
    HttpClient watchClient = client(watchers);
    HttpClient writer = client(1);
    int warm = 20;
    int events = 200;
    long[] sent = new long[warm + events];
    List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch started = new CountDownLatch(watchers);
    CountDownLatch received = new CountDownLatch(watchers * (warm + events));
    Pattern name = Pattern.compile("\"name\":\"w(\\d+)\"");
    for (int w = 0; w < watchers; w++) {
      watchClient
          .request(request(HttpMethod.GET, "/api/v1/namespaces/default/configmaps?watch=true"))
          .compose(r -> r.send())
          .onSuccess(resp -> {
            started.countDown();
            resp.handler(
                RecordParser.newDelimited(
                    "\n",
                    line -> {
                      long now = System.nanoTime();
                      Matcher m = name.matcher(line.toString());
                      if (m.find()) {
                        int i = Integer.parseInt(m.group(1));
                        if (i >= warm) {
                          latencies.add(now - sent[i]);
                        }
                        received.countDown();
                      }
                    }));
          });
    }
    if (!started.await(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("watches did not start");
    }
    for (int i = 0; i < warm + events; i++) {
      RequestOptions r = request(HttpMethod.POST, "/api/v1/namespaces/default/configmaps");
      r.putHeader("Content-Type", "application/json");
      Buffer body =
          Buffer.buffer(
              "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"w"
                  + i
                  + "\"},\"data\":{\"k\":\"v\"}}");
      sent[i] = System.nanoTime();
      writer
          .request(r)
          .compose(req -> req.send(body))
          .compose(resp -> resp.body())
          .toCompletionStage()
          .toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
      Thread.sleep(10);
    }
    if (!received.await(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("watchers missed events: " + received.getCount());
    }
    List<Long> sorted = new ArrayList<>(latencies);
    Collections.sort(sorted);
    System.out.printf(
        "[bench] watch: %d watchers x %d events, write-to-delivery latency p50 %.2f ms, p99 %.2f"
            + " ms, max %.2f ms%n",
        watchers,
        events,
        sorted.get(sorted.size() / 2) / 1e6,
        sorted.get((int) (sorted.size() * 0.99)) / 1e6,
        sorted.get(sorted.size() - 1) / 1e6);
    watchClient.close();
    writer.close();
  }

  // ---------------------------------------------------------------- fabric8

  private void fabric8() throws Exception {
    Config config =
        Config.fromKubeconfig(
            null, Files.readString(args.kubeconfig()), args.kubeconfig().toString());
    int threads = 8;
    int perThread = 2_000;
    try (KubernetesClient c = new KubernetesClientBuilder().withConfig(config).build()) {
      for (int round = 0; round < 2; round++) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        String prefix = "f" + round + "-";
        long t0 = System.nanoTime();
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          fs.add(
              pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                  String body =
                      new String(claim(prefix + thread + "-" + i), StandardCharsets.UTF_8);
                  c.resource(body).create();
                }
                return null;
              }));
        }
        for (Future<?> f : fs) {
          f.get();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        if (round == 1) {
          System.out.printf(
              "[bench] fabric8 client, %d threads: %.0f creates/s%n",
              threads, threads * perThread / secs);
        }
      }
    }
  }

  // ---------------------------------------------------------------- heap

  /** The server's used heap after a full GC, via jcmd; 0 when no pid was given. */
  private long heapAfterGc() throws Exception {
    if (args.pid() == 0) {
      return 0;
    }
    jcmd("GC.run");
    String info = jcmd("GC.heap_info");
    Matcher m = Pattern.compile("used (\\d+)([KMG])").matcher(info);
    if (!m.find()) {
      throw new IllegalStateException("cannot read heap use from: " + info);
    }
    long v = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "K" -> v << 10;
      case "M" -> v << 20;
      default -> v << 30;
    };
  }

  private String jcmd(String command) throws Exception {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p =
        new ProcessBuilder(jcmd.toString(), Long.toString(args.pid()), command)
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException("jcmd " + command + " failed: " + out);
    }
    return out;
  }
}
