package io.jdra.kubelet.bench;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.jdra.kubelet.Kubelet;
import io.jdra.kubelet.KubeletOptions;
import io.jdra.kubelet.fake.FakeDriver;
import io.jdra.kubelet.sim.KubeletServer;
import io.jdra.runtime.Ctx;
import io.jdra.testing.apiserver.TestApiServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Scenario benchmark (run by {@code scripts/bench-kubelet}, never by the test suite):
 *
 * <ol>
 *   <li>pod start latency: N pods (default 1,000) on one simulated node (bound all at once, or with
 *       a third argument {@code sequential} one after the other), each with one allocated claim
 *       reserved for it, created unbound; the clock starts when the binding is posted and stops
 *       when a watch sees the pod Running. Claims go through a fake driver over real Unix sockets.
 *       Prints p50/p90/p99/max and throughput, the same less the driver's own work (the time in its
 *       NodePrepareResources handler), and the kubelet's mean PrepareResources and gRPC round trip
 *       from its metrics. A fourth argument W runs W warm-up pods first (one at a time, same node),
 *       reported apart; the numbers are also printed with them counted.
 *   <li>memory per simulated node: M idle nodes (default 20) in this JVM sharing the API client and
 *       HTTP endpoint; heap used after GC, before and after, divided by M.
 * </ol>
 *
 * Everything runs in one JVM with the embedded API server, so the numbers include its work.
 */
public final class PodStartBench {
  /** One pod at a time (latency without queueing) instead of all bindings at once (burst). */
  static boolean sequential;

  public static void main(String[] args) throws Exception {
    int pods = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    sequential = args.length > 2 && args[2].equals("sequential");
    int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 0;
    // BENCH_DIR=/dev/shm measures without disk syncs (the checkpoint's fsyncs).
    String base = System.getenv().getOrDefault("BENCH_DIR", System.getProperty("java.io.tmpdir"));
    Path root = Files.createTempDirectory(Path.of(base), "kubelet-bench");
    try (TestApiServer api = TestApiServer.start();
        KubeletServer server = KubeletServer.start("127.0.0.1", 0)) {
      KubernetesClient client = api.client();
      Ctx ctx = Ctx.background("bench").withCancel();
      podStart(ctx, client, server, root.resolve("node-0"), pods, warmup);
      memory(ctx, client, server, root, nodes);
      ctx.cancel();
    } finally {
      deleteTree(root);
    }
    System.exit(0);
  }

  static void podStart(
      Ctx ctx, KubernetesClient client, KubeletServer server, Path root, int n, int warmup)
      throws Exception {
    PrometheusRegistry metrics = new PrometheusRegistry();
    Kubelet.Handle kubelet =
        Kubelet.start(
            ctx,
            new KubeletOptions(
                client, "node-0", root, null, null, null, server, metrics, null, null, 0));
    kubelet.ready().get(60, TimeUnit.SECONDS);
    FakeDriver driver =
        FakeDriver.start(
            root.resolve("plugins_registry"),
            root.resolve("plugins/gpu.example.com/dra.sock"),
            "gpu.example.com",
            List.of("v1.DRAPlugin"));
    while (!kubelet.plugins().registeredDrivers().contains("gpu.example.com")) {
      Thread.sleep(10);
    }
    // CDI specs for the fake driver's IDs (<driver>/gpu=<claim uid>): one file, all devices.
    List<Pod> created = new ArrayList<>();
    StringBuilder devices = new StringBuilder();
    for (int i = 0; i < warmup + n; i++) {
      Pod p = client.pods().inNamespace("default").resource(pod("p" + i)).create();
      ResourceClaim c = claim(client, "c" + i, p);
      devices
          .append(devices.length() == 0 ? "" : ",")
          .append("{\"name\":\"")
          .append(c.getMetadata().getUid())
          .append("\",\"containerEdits\":{\"env\":[\"GPU_DEVICE_0=gpu-")
          .append(i)
          .append("\"]}}");
      created.add(p);
    }
    Files.createDirectories(root.resolve("cdi"));
    Files.writeString(
        root.resolve("cdi/gpu.json"),
        "{\"cdiVersion\":\"0.5.0\",\"kind\":\"gpu.example.com/gpu\",\"devices\":["
            + devices
            + "]}");

    Map<String, Long> boundAt = new ConcurrentHashMap<>();
    Map<String, Long> runningAt = new ConcurrentHashMap<>();
    CountDownLatch allRunning = new CountDownLatch(warmup + n);
    // One at a time: the main thread blocks until the watch sees its pod (no polling CPU).
    Map<String, CountDownLatch> oneRunning = new ConcurrentHashMap<>();
    var watch =
        client
            .pods()
            .inNamespace("default")
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, Pod pod) {
                    if (pod.getStatus() != null
                        && "Running".equals(pod.getStatus().getPhase())
                        && runningAt.putIfAbsent(pod.getMetadata().getName(), System.nanoTime())
                            == null) {
                      allRunning.countDown();
                      oneRunning
                          .computeIfAbsent(pod.getMetadata().getName(), k -> new CountDownLatch(1))
                          .countDown();
                    }
                  }

                  @Override
                  public void onClose(WatcherException e) {}
                });
    // Warm-up pods run first, one at a time, on the same node; they are reported apart.
    bind(client, created.subList(0, warmup), boundAt, oneRunning, true);
    String load = uptime();
    long cpuStart = processCpuNanos();
    long carrierStart = carrierCpuNanos();
    long start = System.nanoTime();
    bind(client, created.subList(warmup, created.size()), boundAt, oneRunning, sequential);
    boolean done = allRunning.await(10, TimeUnit.MINUTES);
    long total = System.nanoTime() - start;
    long cpu = processCpuNanos() - cpuStart;
    long carrierCpu = carrierCpuNanos() - carrierStart;
    watch.close();
    java.util.Set<String> warm = new java.util.HashSet<>();
    created.subList(0, warmup).forEach(p -> warm.add(p.getMetadata().getName()));
    double[] ms = latencies(boundAt, runningAt, k -> !warm.contains(k), null);
    // The same latencies less the driver's own work for the pod's claim (claim cN of pod pN).
    double[] kubeletMs =
        latencies(boundAt, runningAt, k -> !warm.contains(k), driver.prepareHandlerNanos);
    double[] allKubeletMs = latencies(boundAt, runningAt, k -> true, driver.prepareHandlerNanos);
    double[] driverMs =
        driver.prepareHandlerNanos.values().stream().mapToDouble(v -> v / 1e6).sorted().toArray();
    System.out.printf(
        "pod start (bound -> Running), %d pods, one claim each, one node, %s: %s%n",
        ms.length,
        sequential ? "one at a time" : "all bound at once",
        done ? "all Running" : "TIMED OUT");
    System.out.printf(
        "  p50 %.1f ms  p90 %.1f ms  p99 %.1f ms  max %.1f ms  throughput %.0f pods/s%n",
        pct(ms, 50), pct(ms, 90), pct(ms, 99), ms[ms.length - 1], ms.length / (total / 1e9));
    System.out.printf(
        "  excluding the driver's own work: p50 %.1f ms  p90 %.1f ms  p99 %.1f ms%n",
        pct(kubeletMs, 50), pct(kubeletMs, 90), pct(kubeletMs, 99));
    if (warmup > 0) {
      double[] warmMs =
          warm.stream()
              .filter(runningAt::containsKey)
              .mapToDouble(k -> (runningAt.get(k) - boundAt.get(k)) / 1e6)
              .sorted()
              .toArray();
      System.out.printf(
          "  after %d warm-up pods (one at a time, same node, not counted above: p50 %.1f ms"
              + "  max %.1f ms); counting them too, excluding the driver's own work: p50 %.1f ms"
              + "  p90 %.1f ms  p99 %.1f ms%n",
          warmup,
          pct(warmMs, 50),
          warmMs[warmMs.length - 1],
          pct(allKubeletMs, 50),
          pct(allKubeletMs, 90),
          pct(allKubeletMs, 99));
    } else {
      System.out.println("  no warm-up: the first pods run cold code (JIT)");
    }
    System.out.printf(
        "  driver's own work (its NodePrepareResources handler): p50 %.3f ms  p99 %.3f ms%n",
        pct(driverMs, 50), pct(driverMs, 99));
    System.out.printf(
        "  kubelet's view (means): PrepareResources %.1f ms, of it the NodePrepareResources"
            + " round trip %.1f ms%n",
        meanMs(metrics, "dra_operations_duration_seconds"),
        meanMs(metrics, "dra_grpc_operations_duration_seconds"));
    System.out.printf(
        "  process CPU (user+sys, API server and bench included): %.2f ms per pod, of it on"
            + " virtual threads (the kubelet's pod syncs and status writes) %.2f ms%n",
        cpu / 1e6 / ms.length, carrierCpu / 1e6 / ms.length);
    System.out.printf("  driver calls: %d prepare%n", driver.prepareCalls.size());
    // The first pod runs cold code paths; the rest of the tail is the machine's scheduling.
    System.out.println(
        "  slowest 5 (pod ms): "
            + boundAt.keySet().stream()
                .filter(k -> runningAt.containsKey(k) && !warm.contains(k))
                .sorted(Comparator.comparingLong(k -> boundAt.get(k) - runningAt.get(k)))
                .limit(5)
                .map(k -> k + " " + (runningAt.get(k) - boundAt.get(k)) / 1_000_000)
                .toList());
    System.out.println("  load before: " + load);
    System.out.println("  load after:  " + uptime());
    driver.close();
    kubelet.stop();
  }

  /**
   * Bound -> Running in ms of the pods whose names pass {@code include}, sorted; less the driver's
   * handler time for the pod's claim (claim cN of pod pN) when {@code driverNanos} is given.
   */
  static double[] latencies(
      Map<String, Long> boundAt,
      Map<String, Long> runningAt,
      java.util.function.Predicate<String> include,
      Map<String, Long> driverNanos) {
    return boundAt.entrySet().stream()
        .filter(e -> runningAt.containsKey(e.getKey()) && include.test(e.getKey()))
        .mapToDouble(e -> {
          long driver =
              driverNanos == null ? 0 : driverNanos.getOrDefault("c" + e.getKey().substring(1), 0L);
          return (runningAt.get(e.getKey()) - e.getValue() - driver) / 1e6;
        })
        .sorted()
        .toArray();
  }

  /** Posts each pod's binding; one at a time waits until the watch saw the pod Running. */
  static void bind(
      KubernetesClient client,
      List<Pod> pods,
      Map<String, Long> boundAt,
      Map<String, CountDownLatch> oneRunning,
      boolean oneAtATime)
      throws InterruptedException {
    for (Pod p : pods) {
      String name = p.getMetadata().getName();
      Binding b =
          new BindingBuilder()
              .withNewMetadata()
              .withName(name)
              .endMetadata()
              .withNewTarget()
              .withKind("Node")
              .withName("node-0")
              .endTarget()
              .build();
      boundAt.put(name, System.nanoTime());
      client.raw(
          client.getMasterUrl() + "api/v1/namespaces/default/pods/" + name + "/binding", "POST", b);
      if (oneAtATime) {
        oneRunning.computeIfAbsent(name, k -> new CountDownLatch(1)).await(1, TimeUnit.MINUTES);
      }
    }
  }

  static void deleteTree(Path root) throws java.io.IOException {
    try (var paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  static void memory(Ctx ctx, KubernetesClient client, KubeletServer server, Path root, int m)
      throws Exception {
    long before = usedAfterGc();
    List<Kubelet.Handle> handles = new ArrayList<>();
    for (int i = 1; i <= m; i++) {
      Kubelet.Handle h =
          Kubelet.start(
              ctx,
              KubeletOptions.of(client, "mem-node-" + i, root.resolve("mem-node-" + i), server));
      handles.add(h);
    }
    for (Kubelet.Handle h : handles) {
      h.ready().get(120, TimeUnit.SECONDS);
    }
    long after = usedAfterGc();
    System.out.printf(
        "memory: %d idle simulated nodes, heap used after GC %.1f MB -> %.1f MB: %.2f MB per node%n",
        m, before / 1e6, after / 1e6, (after - before) / 1e6 / m);
    System.out.printf("  threads: %d live%n", ManagementFactory.getThreadMXBean().getThreadCount());
    handles.forEach(Kubelet.Handle::stop);
  }

  static long usedAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }

  /** CPU time of this process, all threads (load-independent, unlike wall-clock latency). */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * CPU time of the virtual-thread scheduler's carrier threads ({@code ForkJoinPool-1-worker-N}):
   * in this process only the kubelet runs virtual threads (pod syncs with their prepare, claim read
   * and checkpoint; status writes), so this is the kubelet's own pod-path CPU, without its
   * informer, gRPC and HTTP client threads.
   */
  static long carrierCpuNanos() {
    var threads = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().matches("ForkJoinPool-\\d+-worker-\\d+")) {
        sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    return sum;
  }

  /** Mean of a histogram over all its label sets, in milliseconds. */
  static double meanMs(PrometheusRegistry registry, String name) {
    double sum = 0;
    long count = 0;
    for (var snapshot : registry.scrape()) {
      if (snapshot.getMetadata().getPrometheusName().equals(name)
          && snapshot instanceof HistogramSnapshot h) {
        for (var d : h.getDataPoints()) {
          sum += d.getSum();
          count += d.getCount();
        }
      }
    }
    return count == 0 ? 0 : sum / count * 1000;
  }

  static double pct(double[] sorted, int p) {
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  static String uptime() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (Exception e) {
      return "?";
    }
  }

  static Pod pod(String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .addNewResourceClaim()
        .withName("gpu")
        .withResourceClaimName("c" + name.substring(1))
        .endResourceClaim()
        .addNewContainer()
        .withName("ctr")
        .withImage("ubuntu:22.04")
        .withCommand("bash", "-c", "export; sleep 9999")
        .withNewResources()
        .addNewClaim()
        .withName("gpu")
        .endClaim()
        .endResources()
        .endContainer()
        .endSpec()
        .build();
  }

  static ResourceClaim claim(KubernetesClient client, String name, Pod pod) {
    var claims = client.resources(ResourceClaim.class).inNamespace("default");
    ResourceClaim c =
        claims
            .resource(
                new ResourceClaimBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .endMetadata()
                    .withNewSpec()
                    .withNewDevices()
                    .addNewRequest()
                    .withName("req")
                    .withNewExactly()
                    .withDeviceClassName("gpu.example.com")
                    .endExactly()
                    .endRequest()
                    .endDevices()
                    .endSpec()
                    .build())
            .create();
    c =
        new ResourceClaimBuilder(c)
            .withNewStatus()
            .withNewAllocation()
            .withNewDevices()
            .addNewResult()
            .withRequest("req")
            .withDriver("gpu.example.com")
            .withPool("node-0")
            .withDevice("gpu-" + name)
            .endResult()
            .endDevices()
            .endAllocation()
            .addNewReservedFor()
            .withResource("pods")
            .withName(pod.getMetadata().getName())
            .withUid(pod.getMetadata().getUid())
            .endReservedFor()
            .endStatus()
            .build();
    return claims.resource(c).updateStatus();
  }
}
