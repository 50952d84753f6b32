package io.jdra.apiserver.bench;

import io.jdra.apiserver.ApiServerOptions;
import io.jdra.apiserver.EmbeddedApiServer;
import io.jdra.apiserver.http.InProcessCall;
import io.jdra.apiserver.http.InProcessRequest;
import io.jdra.apiserver.http.InProcessResponse;
import io.jdra.apiserver.http.InProcessTransport;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@link PodWritesCpuProbe} and {@link ClaimWritesCpuProbe} share: rounds, each against a
 * fresh embedded API server with watches open, of one object's writes at a time for N objects (16
 * in flight) over the JDK's HTTP client, measuring the CPU time and allocation of the server's
 * threads only; and the claim bodies both write.
 */
final class WritesProbe {
  static final JsonMapper JSON = JsonMapper.builder().build();
  private static final int IN_FLIGHT = 16;

  private final URI base;
  private final HttpClient http;

  /** The server's in-process transport when the probe asks in memory (as the bench does). */
  private final InProcessTransport inProcess;

  private final ExecutorService clientThreads;

  private WritesProbe(URI base, InProcessTransport inProcess, ExecutorService clientThreads) {
    this.base = base;
    this.inProcess = inProcess;
    this.clientThreads = clientThreads;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .executor(clientThreads)
            .build();
  }

  /**
   * Runs {@code args[0]} rounds (default 5) of {@code args[1]} objects (default 2,000) and prints
   * each round's server CPU and allocation per object. With {@code args[2]} {@code in-process} the
   * requests reach the server through its in-process transport, as {@code jdra bench scheduler}'s
   * clients do (no socket, HTTP codec or TLS), else over HTTP.
   *
   * @param unit what one object is ("pod", "claim")
   * @param writes how many writes one object takes, for the output
   * @param watches the watch paths open during a round
   * @param one the writes of one object, by name
   */
  static void rounds(
      String[] args,
      String unit,
      String writes,
      String[] watches,
      BiFunction<WritesProbe, String, CompletableFuture<?>> one)
      throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    boolean inMemory = args.length > 2 && args[2].equals("in-process");
    AtomicInteger n = new AtomicInteger();
    ExecutorService clientThreads =
        Executors.newFixedThreadPool(2, r -> new Thread(r, "probe-client-" + n.incrementAndGet()));
    try {
      for (int round = 0; round < rounds; round++) {
        try (EmbeddedApiServer s = EmbeddedApiServer.start(ApiServerOptions.inMemory())) {
          WritesProbe p = new WritesProbe(s.url(), inMemory ? s.inProcess() : null, clientThreads);
          List<Thread> watchers = p.watch(watches);
          long cpu0 = serverCpu();
          long loops0 = eventLoopCpu();
          long allocated0 = serverAllocated();
          p.run(count, "r" + round + "-", one);
          long cpu = serverCpu() - cpu0;
          long loops = eventLoopCpu() - loops0;
          long allocated = serverAllocated() - allocated0;
          System.out.printf(
              "round %d: %.1f us server CPU per %s (event loops %.1f), %.1f KB allocated per %s"
                  + " (%d %ss, %s writes each, %s)%n",
              round,
              cpu / 1e3 / count,
              unit,
              loops / 1e3 / count,
              allocated / 1024.0 / count,
              unit,
              count,
              unit,
              writes,
              inMemory ? "in process" : "HTTP");
          watchers.forEach(Thread::interrupt);
        }
      }
    } finally {
      clientThreads.shutdownNow();
    }
  }

  /**
   * Bytes allocated by the server's threads (as {@link #serverCpu}): unlike CPU time, it does not
   * move with the machine's load, so it shows small changes that CPU time hides on a busy machine.
   */
  static long serverAllocated() {
    var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (var info : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (info != null && serverThread(info.getThreadName())) {
        long b = mx.getThreadAllocatedBytes(info.getThreadId());
        if (b > 0) {
          sum += b;
        }
      }
    }
    return sum;
  }

  static boolean serverThread(String name) {
    return !(name.startsWith("probe-")
        || name.startsWith("HttpClient")
        || name.startsWith("ForkJoinPool.commonPool")
        || name.equals("main"));
  }

  /**
   * CPU time of every live thread that is not the probe's own: client, watch readers, main, and the
   * common pool, where the JDK client completes its futures and so runs the probe's own request
   * building and response parsing (the server does not use it).
   */
  static long serverCpu() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (var info : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      if (!serverThread(info.getThreadName())) {
        continue;
      }
      long t = mx.getThreadCpuTime(info.getThreadId());
      if (t > 0) {
        sum += t;
      }
    }
    return sum;
  }

  /**
   * CPU time of the server's event loops alone, where it handles requests: unlike {@link
   * #serverCpu}, without the JIT compiler's and the collector's threads, whose share of a round
   * varies from run to run.
   */
  static long eventLoopCpu() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (var info : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith("vert.x-eventloop")) {
        long t = mx.getThreadCpuTime(info.getThreadId());
        if (t > 0) {
          sum += t;
        }
      }
    }
    return sum;
  }

  /** Opens watches on {@code paths} and drains them on probe threads, as informers read them. */
  List<Thread> watch(String... paths) throws Exception {
    List<Thread> threads = new ArrayList<>();
    if (inProcess != null) {
      for (String path : paths) {
        inProcess.send(
            new InProcessRequest("GET", path, "watch=true", Map.of(), null), new Drain());
      }
      return threads;
    }
    for (String path : paths) {
      HttpResponse<java.io.InputStream> r =
          http.send(
              HttpRequest.newBuilder(base.resolve(path + "?watch=true")).build(),
              HttpResponse.BodyHandlers.ofInputStream());
      Thread t =
          new Thread(
              () -> {
                byte[] buf = new byte[65536];
                try (var in = r.body()) {
                  while (in.read(buf) >= 0) {
                    // drained, as an informer reads them
                  }
                } catch (java.io.IOException e) {
                  // the server stopped
                }
              },
              "probe-watch");
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    return threads;
  }

  private void run(
      int count, String prefix, BiFunction<WritesProbe, String, CompletableFuture<?>> one)
      throws Exception {
    Semaphore inFlight = new Semaphore(IN_FLIGHT);
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      inFlight.acquire();
      all.add(one.apply(this, prefix + i).whenComplete((v, e) -> inFlight.release()));
    }
    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
  }

  /**
   * The scheduler's PreBind writes of a created claim at {@code claimPath}: the finalizer (PUT),
   * then the allocation (PUT status); the allocated claim.
   */
  CompletableFuture<ObjectNode> reserve(String claimPath, ObjectNode created) {
    return send("PUT", claimPath, "application/json", finalizer(created))
        .thenCompose(c -> send("PUT", claimPath + "/status", "application/json", allocate(c)));
  }

  CompletableFuture<ObjectNode> send(String method, String path, String contentType, String body) {
    if (inProcess != null) {
      return sendInProcess(method, path, contentType, body);
    }
    HttpRequest r =
        HttpRequest.newBuilder(base.resolve(path))
            .method(method, HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", contentType)
            .build();
    return http.sendAsync(r, HttpResponse.BodyHandlers.ofByteArray())
        .thenApply(resp -> {
          if (resp.statusCode() >= 300) {
            throw new IllegalStateException(
                method
                    + " "
                    + path
                    + ": "
                    + resp.statusCode()
                    + " "
                    + new String(resp.body(), StandardCharsets.UTF_8));
          }
          return (ObjectNode) JSON.readTree(resp.body());
        });
  }

  private CompletableFuture<ObjectNode> sendInProcess(
      String method, String path, String contentType, String body) {
    int q = path.indexOf('?');
    InProcessRequest r =
        new InProcessRequest(
            method,
            q < 0 ? path : path.substring(0, q),
            q < 0 ? null : path.substring(q + 1),
            Map.of("Content-Type", List.of(contentType)),
            body.getBytes(StandardCharsets.UTF_8));
    Collect c = new Collect();
    inProcess.send(r, c);
    // The answer is parsed on a probe thread, not on the server's loop that delivered it.
    return c.done.thenApplyAsync(
        bytes -> {
          if (c.status >= 300) {
            throw new IllegalStateException(
                method
                    + " "
                    + path
                    + ": "
                    + c.status
                    + " "
                    + new String(bytes, StandardCharsets.UTF_8));
          }
          return (ObjectNode) JSON.readTree(bytes);
        },
        clientThreads);
  }

  /** Collects an in-process answer's body. */
  private static final class Collect implements InProcessResponse {
    final CompletableFuture<byte[]> done = new CompletableFuture<>();
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    InProcessCall call;
    int status;

    @Override
    public void head(int status, Map<String, List<String>> headers, InProcessCall call) {
      this.status = status;
      this.call = call;
      call.request();
    }

    @Override
    public void chunks(List<ByteBuffer> data) {
      for (ByteBuffer b : data) {
        body.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
      }
      call.request();
    }

    @Override
    public void end() {
      done.complete(body.toByteArray());
    }

    @Override
    public void failed(Throwable cause) {
      done.completeExceptionally(cause);
    }
  }

  /** Reads an in-process watch and drops what it reads, as an informer reads it. */
  private static final class Drain implements InProcessResponse {
    private InProcessCall call;

    @Override
    public void head(int status, Map<String, List<String>> headers, InProcessCall call) {
      this.call = call;
      call.request();
    }

    @Override
    public void chunks(List<ByteBuffer> data) {
      call.request();
    }

    @Override
    public void end() {}

    @Override
    public void failed(Throwable cause) {}
  }

  static String claim(String name, String pod, String podUid) {
    return """
    {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
     "metadata":{"name":"%s","annotations":{"resource.kubernetes.io/pod-claim-name":"resource"},
      "ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"%s","uid":"%s",
       "controller":true,"blockOwnerDeletion":true}]},
     "spec":{"devices":{"requests":[{"name":"req-0","exactly":{
       "deviceClassName":"test-class","allocationMode":"ExactCount","count":1}}]}}}
    """
        .formatted(name, pod, podUid);
  }

  static String finalizer(ObjectNode claim) {
    ((ObjectNode) claim.get("metadata"))
        .withArray("finalizers")
        .add("resource.kubernetes.io/delete-protection");
    return claim.toString();
  }

  static String allocate(ObjectNode claim) {
    String pod = claim.at("/metadata/ownerReferences/0/name").asString();
    String podUid = claim.at("/metadata/ownerReferences/0/uid").asString();
    ObjectNode status =
        (ObjectNode)
            JSON.readTree(
                """
                {"allocation":{"devices":{"results":[{"request":"req-0",
                  "driver":"test-driver.cdi.k8s.io","pool":"node-1","device":"device-1"}]},
                 "nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name",
                  "operator":"In","values":["node-1"]}]}]},
                 "allocationTimestamp":"2026-11-26T11:00:00Z"},
                 "reservedFor":[{"resource":"pods","name":"%s","uid":"%s"}]}
                """
                    .formatted(pod, podUid));
    claim.set("status", status);
    return claim.toString();
  }
}
