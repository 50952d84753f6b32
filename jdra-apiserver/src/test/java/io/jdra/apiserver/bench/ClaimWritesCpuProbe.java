package io.jdra.apiserver.bench;

import io.jdra.apiserver.ApiServerOptions;
import io.jdra.apiserver.EmbeddedApiServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The embedded API server's CPU per claim for the claim writes of a pod's life in {@code jdra bench
 * scheduler}'s steady-state workloads: the controller's create, the scheduler's finalizer Update
 * and allocating UpdateStatus, then, once the pod is gone, the controller's deallocating
 * UpdateStatus (reservedFor, allocation and devices cleared) and the Update that removes the
 * finalizer, and the claim's delete. The claim watches of that bench are open (scheduler,
 * controller). Counts the CPU time of the server's threads only, as {@link PodWritesCpuProbe} does:
 *
 * <pre>java -cp ... io.jdra.apiserver.bench.ClaimWritesCpuProbe [rounds] [claims per round]</pre>
 */
public final class ClaimWritesCpuProbe {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final int IN_FLIGHT = 16;

  private final URI base;
  private final HttpClient http;
  private final ExecutorService clientThreads;

  private ClaimWritesCpuProbe(URI base, ExecutorService clientThreads) {
    this.base = base;
    this.clientThreads = clientThreads;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .executor(clientThreads)
            .build();
  }

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int pods = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    AtomicInteger n = new AtomicInteger();
    ExecutorService clientThreads =
        Executors.newFixedThreadPool(2, r -> new Thread(r, "probe-client-" + n.incrementAndGet()));
    try {
      for (int round = 0; round < rounds; round++) {
        try (EmbeddedApiServer s = EmbeddedApiServer.start(ApiServerOptions.inMemory())) {
          ClaimWritesCpuProbe p = new ClaimWritesCpuProbe(s.url(), clientThreads);
          List<Thread> watchers = p.watch();
          long cpu0 = serverCpu();
          long allocated0 = serverAllocated();
          p.run(pods, "r" + round + "-");
          long cpu = serverCpu() - cpu0;
          long allocated = serverAllocated() - allocated0;
          System.out.printf(
              "round %d: %.1f us server CPU per claim, %.1f KB allocated per claim"
                  + " (%d claims, six writes each)%n",
              round, cpu / 1e3 / pods, allocated / 1024.0 / pods, pods);
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
  private static long serverAllocated() {
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

  private static boolean serverThread(String name) {
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
  private static long serverCpu() {
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

  /** Opens the bench's watches and drains them on probe threads. */
  private List<Thread> watch() throws Exception {
    List<Thread> threads = new ArrayList<>();
    String[] paths = {
      "/apis/resource.k8s.io/v1/resourceclaims", "/apis/resource.k8s.io/v1/resourceclaims"
    };
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

  private void run(int pods, String prefix) throws Exception {
    Semaphore inFlight = new Semaphore(IN_FLIGHT);
    List<CompletableFuture<?>> all = new ArrayList<>();
    for (int i = 0; i < pods; i++) {
      inFlight.acquire();
      all.add(oneClaim(prefix + i).whenComplete((v, e) -> inFlight.release()));
    }
    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
  }

  private CompletableFuture<?> oneClaim(String pod) {
    String claims = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims";
    String claim = pod + "-resource-x";
    String uid = java.util.UUID.nameUUIDFromBytes(pod.getBytes(StandardCharsets.UTF_8)).toString();
    return send("POST", claims, "application/json", claim(claim, pod, uid))
        .thenCompose(c -> send("PUT", claims + "/" + claim, "application/json", finalizer(c)))
        .thenCompose(
            c -> send("PUT", claims + "/" + claim + "/status", "application/json", allocate(c)))
        .thenCompose(
            c -> send("PUT", claims + "/" + claim + "/status", "application/json", deallocate(c)))
        .thenCompose(
            c -> send("PUT", claims + "/" + claim, "application/json", withoutFinalizer(c)))
        .thenCompose(c -> send("DELETE", claims + "/" + claim, "application/json", ""));
  }

  private CompletableFuture<ObjectNode> send(
      String method, String path, String contentType, String body) {
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

  private static String claim(String name, String pod, String podUid) {
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

  private static String finalizer(ObjectNode claim) {
    ((ObjectNode) claim.get("metadata"))
        .withArray("finalizers")
        .add("resource.kubernetes.io/delete-protection");
    return claim.toString();
  }

  private static String allocate(ObjectNode claim) {
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

  /**
   * As the ResourceClaim controller's release of a claim whose last consumer left: reservedFor
   * emptied, allocation cleared, devices emptied (fabric8 writes the empty lists).
   */
  private static String deallocate(ObjectNode claim) {
    ObjectNode status = (ObjectNode) claim.get("status");
    status.remove("allocation");
    status.putArray("reservedFor");
    status.putArray("devices");
    return claim.toString();
  }

  private static String withoutFinalizer(ObjectNode claim) {
    ((ObjectNode) claim.get("metadata")).remove("finalizers");
    return claim.toString();
  }
}
