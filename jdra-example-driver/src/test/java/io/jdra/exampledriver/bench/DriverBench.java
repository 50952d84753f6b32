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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Scenario benchmark of the example driver (run by {@code scripts/bench-driver}; never by the test
 * suite): prepare+unprepare round trips per second over gRPC on Unix sockets (one claim, one
 * device, CDI spec written and removed, checkpoint synced each time), and the time from driver
 * start to its slices being published, for one driver and for several in one JVM.
 */
public final class DriverBench {
  private DriverBench() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    int drivers = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    // BENCH_DIR=/dev/shm measures without disk syncs (each round trip syncs three files).
    String base = System.getenv().getOrDefault("BENCH_DIR", System.getProperty("java.io.tmpdir"));
    Path dir = Files.createTempDirectory(Path.of(base), "jdra-driver-bench");
    try (TestApiServer server = TestApiServer.start()) {
      KubernetesClient client = server.client();
      Ctx ctx = Ctx.background("bench");
      ExampleDriver driver = startAndTime(ctx, client, dir, "bench-node-0", true);
      try (KubeletSim kubelet =
          new KubeletSim(dir.resolve("registry").resolve("gpu.example.com-reg.sock"))) {
        kubelet.register();
        var claim =
            Claims.claim(client, "bench")
                .device("gpu.example.com", "bench-node-0", "gpu-0")
                .create();
        Claim ref = KubeletSim.claim("default", "bench", claim.getMetadata().getUid());
        roundTrips(kubelet, ref, Math.max(200, rounds / 5), false);
        roundTrips(kubelet, ref, rounds, true);
      } finally {
        driver.stop();
      }
      manyDrivers(ctx, client, dir, drivers);
    }
    System.out.println(
        "load average (1/5/15 min): " + Files.readString(Path.of("/proc/loadavg")).strip());
  }

  private static ExampleDriver startAndTime(
      Ctx ctx, KubernetesClient client, Path dir, String node, boolean print) {
    client
        .nodes()
        .resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().build())
        .create();
    Flags flags =
        Flags.defaults(node)
            .withDirs(
                dir.resolve("cdi-" + node),
                dir.resolve("registry"),
                dir.resolve("plugins-" + node));
    long t0 = System.nanoTime();
    ExampleDriver driver = ExampleDriver.start(ctx, flags, client);
    long listening = System.nanoTime();
    while (!driver.published()) {
      Thread.onSpinWait();
    }
    long published = System.nanoTime();
    if (print) {
      System.out.printf(
          "driver start: sockets listening after %.1f ms, slices published after %.1f ms%n",
          (listening - t0) / 1e6, (published - t0) / 1e6);
    }
    return driver;
  }

  private static void roundTrips(KubeletSim kubelet, Claim ref, int n, boolean print) {
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      String err = kubelet.prepare(ref).getError();
      if (!err.isEmpty()) {
        throw new IllegalStateException(err);
      }
      err = kubelet.unprepare(ref);
      if (!err.isEmpty()) {
        throw new IllegalStateException(err);
      }
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    if (print) {
      System.out.printf(
          "prepare+unprepare: %d round trips in %.2f s = %.0f/s (%.0f us each)%n",
          n, secs, n / secs, secs * 1e6 / n);
    }
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
      while (!d.published()) {
        Thread.onSpinWait();
      }
    }
    double ms = (System.nanoTime() - t0) / 1e6;
    System.out.printf(
        "%d drivers in one JVM: all slices published after %.0f ms; platform threads +%d%n",
        n, ms, Thread.activeCount() - threadsBefore);
    started.forEach(ExampleDriver::stop);
  }
}
