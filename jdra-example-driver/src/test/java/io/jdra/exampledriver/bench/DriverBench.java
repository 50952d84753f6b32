package io.jdra.exampledriver.bench;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.exampledriver.Claims;
import io.jdra.exampledriver.ExampleDriver;
import io.jdra.exampledriver.Flags;
import io.jdra.exampledriver.KubeletSim;
import io.jdra.proto.dra.v1.Claim;
import io.jdra.runtime.Ctx;
import io.jdra.testing.apiserver.TestApiServer;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Scenario benchmark of the example driver (run by {@code scripts/bench-driver}; never by the test
 * suite): prepare+unprepare round trips over gRPC on Unix sockets, one claim with one device per
 * caller, CDI spec written and removed, checkpoint synced. Sequential (one caller) and with 8 and
 * 32 concurrent callers on one connection, as the kubelet prepares the pods of a node in parallel.
 * Prints round trips/s, p50/p99 latency of a round trip, process CPU time per round trip (driver,
 * embedded API server and the simulated kubelet are one JVM) and checkpoint files written per round
 * trip; then the time from driver start to slices published, for one driver and for several in one
 * JVM.
 */
public final class DriverBench {
  /** BENCH_CALLERS (comma-separated) picks the rows; 1, 8 and 32 by default. */
  private static final int[] CALLERS =
      Arrays.stream(System.getenv().getOrDefault("BENCH_CALLERS", "1,8,32").split(","))
          .mapToInt(s -> Integer.parseInt(s.strip()))
          .toArray();

  private DriverBench() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    int drivers = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    // BENCH_DIR=/dev/shm measures without disk syncs.
    String base = System.getenv().getOrDefault("BENCH_DIR", System.getProperty("java.io.tmpdir"));
    Path dir = Files.createTempDirectory(Path.of(base), "jdra-driver-bench");
    System.out.println("load average at start: " + loadavg() + "; directory " + dir);
    try (TestApiServer server = TestApiServer.start()) {
      KubernetesClient client = server.client();
      Ctx ctx = Ctx.background("bench");
      int maxCallers = Arrays.stream(CALLERS).max().orElse(1);
      ExampleDriver driver =
          startAndTime(ctx, client, dir, "bench-node-0", maxCallers, "first driver (cold JVM)");
      try (KubeletSim kubelet =
          new KubeletSim(dir.resolve("registry").resolve("gpu.example.com-reg.sock"))) {
        kubelet.register();
        List<Claim> refs = new ArrayList<>();
        for (int i = 0; i < maxCallers; i++) {
          var claim =
              Claims.claim(client, "bench-" + i)
                  .device("gpu.example.com", "bench-node-0", "gpu-" + i)
                  .create();
          refs.add(KubeletSim.claim("default", "bench-" + i, claim.getMetadata().getUid()));
        }
        // Warm-up until the JIT is mostly done: the compiler threads otherwise take more CPU
        // than the round trips themselves, and they count in the process CPU time.
        for (int callers : CALLERS) {
          run(kubelet, driver, refs, callers, rounds, false);
        }
        for (int callers : CALLERS) {
          run(kubelet, driver, refs, callers, rounds, true);
        }
      } finally {
        driver.stop();
      }
      startAndTime(ctx, client, dir, "bench-node-warm", 8, "one more driver (warm JVM)").stop();
      manyDrivers(ctx, client, dir, drivers);
    }
    System.out.println("load average at end: " + loadavg());
  }

  private static String loadavg() throws java.io.IOException {
    return Files.readString(Path.of("/proc/loadavg")).strip();
  }

  private static ExampleDriver startAndTime(
      Ctx ctx, KubernetesClient client, Path dir, String node, int devices, String what) {
    client
        .nodes()
        .resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().build())
        .create();
    Flags d = Flags.defaults(node);
    Flags flags =
        new Flags(
                node,
                d.cdiRoot(),
                devices,
                d.kubeletRegistrarDirectoryPath(),
                d.kubeletPluginsDirectoryPath(),
                d.healthcheckPort(),
                d.metricsPort(),
                d.profile(),
                d.driverName(),
                d.podUid(),
                d.gpuPartitions(),
                d.gpuDeviceStatus(),
                d.bindingConditions(),
                d.gpuAllowMultipleAllocations(),
                d.cpuNumaNodes(),
                d.cpusPerNumaNode())
            .withDirs(
                dir.resolve("cdi-" + node),
                dir.resolve("registry"),
                dir.resolve("plugins-" + node));
    long t0 = System.nanoTime();
    ExampleDriver driver = ExampleDriver.start(ctx, flags, client);
    long listening = System.nanoTime();
    awaitPublished(driver);
    long published = System.nanoTime();
    System.out.printf(
        "%s: sockets listening after %.1f ms, slices published after %.1f ms; load %s%n",
        what, (listening - t0) / 1e6, (published - t0) / 1e6, uncheckedLoadavg());
    return driver;
  }

  /** {@code callers} threads, each with its own claim, share {@code n} round trips. */
  private static void run(
      KubeletSim kubelet, ExampleDriver driver, List<Claim> refs, int callers, int n, boolean print)
      throws InterruptedException {
    int each = Math.max(1, n / callers);
    long[][] latencies = new long[callers][each];
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.atomic.LongAdder callerCpu = new java.util.concurrent.atomic.LongAdder();
    for (int c = 0; c < callers; c++) {
      Claim ref = refs.get(c);
      long[] mine = latencies[c];
      threads.add(
          Thread.ofPlatform()
              .name("caller-" + c)
              .start(() -> {
                try {
                  go.await();
                  long cpuStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                  for (int i = 0; i < each; i++) {
                    long t = System.nanoTime();
                    roundTrip(kubelet, ref);
                    mine[i] = System.nanoTime() - t;
                  }
                  callerCpu.add(
                      ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart);
                } catch (Throwable e) {
                  errors.add(e);
                }
              }));
    }
    Map<String, Long> threads0 = ThreadCpu.byGroup();
    long jit0 = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    long writes0 = driver.checkpointWrites();
    long cpu0 = processCpuNanos();
    long t0 = System.nanoTime();
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    long cpu = processCpuNanos() - cpu0;
    Map<String, Long> threadCpu = ThreadCpu.since(threads0);
    threadCpu.put("caller-N", callerCpu.sum());
    long writes = driver.checkpointWrites() - writes0;
    long jit = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jit0;
    if (!errors.isEmpty()) {
      throw new IllegalStateException("round trip failed", errors.get(0));
    }
    if (!print) {
      return;
    }
    long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
    int total = all.length;
    System.out.printf(
        "prepare+unprepare, %2d caller(s): %d round trips in %.2f s = %.0f/s;"
            + " latency p50 %.2f ms, p99 %.2f ms; CPU %.0f us/round trip (%.0f/s on 2 cores);"
            + " %.2f checkpoint writes/round trip; JIT %d ms; load %s%n",
        callers,
        total,
        secs,
        total / secs,
        all[total / 2] / 1e6,
        all[Math.min(total - 1, (int) (total * 0.99))] / 1e6,
        cpu / 1e3 / total,
        2e9 * total / cpu,
        (double) writes / total,
        jit,
        uncheckedLoadavg());
    System.out.println("  Java threads' CPU, us/round trip: " + ThreadCpu.format(threadCpu, total));
  }

  /** Blocks (neither spinning nor polling, which would take a core from the publishing). */
  private static void awaitPublished(ExampleDriver driver) {
    try {
      if (!driver.awaitPublished(Duration.ofMinutes(2))) {
        throw new IllegalStateException("slices not published within 2 minutes");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String uncheckedLoadavg() {
    try {
      return loadavg();
    } catch (java.io.IOException e) {
      return "?";
    }
  }

  private static void roundTrip(KubeletSim kubelet, Claim ref) {
    String err = kubelet.prepare(ref).getError();
    if (!err.isEmpty()) {
      throw new IllegalStateException(err);
    }
    err = kubelet.unprepare(ref);
    if (!err.isEmpty()) {
      throw new IllegalStateException(err);
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static void manyDrivers(Ctx ctx, KubernetesClient client, Path dir, int n) {
    int threadsBefore = Thread.activeCount();
    List<ExampleDriver> started = new ArrayList<>();
    long t0 = System.nanoTime();
    for (int i = 1; i <= n; i++) {
      client
          .nodes()
          .resource(
              new NodeBuilder().withNewMetadata().withName("bench-node-" + i).endMetadata().build())
          .create();
      Flags flags =
          Flags.defaults("bench-node-" + i)
              .withDirs(
                  dir.resolve("cdi-" + i),
                  dir.resolve("registry-" + i),
                  dir.resolve("plugins-" + i));
      started.add(ExampleDriver.start(ctx, flags, client));
    }
    for (ExampleDriver d : started) {
      awaitPublished(d);
    }
    double ms = (System.nanoTime() - t0) / 1e6;
    System.out.printf(
        "%d drivers in one JVM: all slices published after %.0f ms; platform threads +%d%n",
        n, ms, Thread.activeCount() - threadsBefore);
    started.forEach(ExampleDriver::stop);
  }
}
