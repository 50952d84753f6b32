package io.jdra.controllers.devicetainteviction.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRuleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import io.jdra.apiserver.EmbeddedApiServer;
import io.jdra.controllers.devicetainteviction.DeviceTaintEvictionController;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.record.EventRecorderOptions;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.jdra.testing.apiserver.TestApiServer;
import io.jdra.testing.objects.Make;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The load scenario: one DeviceTaintRule taints all of 1,000 devices, used by 5,000 pods
 * (1,000 claims, each shared by 5 pods), on the embedded API server. Prints the time from creating
 * the rule to the last deletion, the API requests the controller made (by verb, and per second),
 * the most pod deletions in flight at once, and the heap used. Run with {@code
 * scripts/bench-taint-eviction [devices] [podsPerDevice] [workers]}.
 */
public final class EvictionLoadScenario {
  private EvictionLoadScenario() {}

  /** Counts requests by verb and the pod DELETEs in flight. */
  static final class Counting implements Interceptor {
    final Map<String, LongAdder> byVerb = new ConcurrentHashMap<>();
    final AtomicInteger deletesInFlight = new AtomicInteger();
    final AtomicInteger maxDeletesInFlight = new AtomicInteger();

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
      String verb = verb(request);
      byVerb.computeIfAbsent(verb, k -> new LongAdder()).increment();
      if (verb.equals("DELETE pods")) {
        maxDeletesInFlight.accumulateAndGet(deletesInFlight.incrementAndGet(), Math::max);
      }
    }

    @Override
    public void after(
        HttpRequest request,
        HttpResponse<?> response,
        AsyncBody.Consumer<List<ByteBuffer>> consumer) {
      if (verb(request).equals("DELETE pods")) {
        deletesInFlight.decrementAndGet();
      }
    }

    static String verb(HttpRequest r) {
      String path = r.uri().getPath();
      String[] parts = path.split("/");
      String resource = "";
      for (int i = parts.length - 1; i >= 0; i--) {
        if (parts[i].matches("pods|resourceclaims|resourceslices|devicetaintrules|events")) {
          resource = parts[i];
          break;
        }
      }
      String watch =
          r.uri().getQuery() != null && r.uri().getQuery().contains("watch=true") ? " watch" : "";
      String status = path.endsWith("/status") ? "/status" : "";
      return r.method() + " " + resource + status + watch;
    }

    Map<String, Long> snapshot() {
      Map<String, Long> m = new TreeMap<>();
      byVerb.forEach((k, v) -> m.put(k, v.sum()));
      return m;
    }
  }

  public static void main(String[] args) throws Exception {
    int devices = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int podsPerDevice = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int workers =
        args.length > 2 ? Integer.parseInt(args[2]) : DeviceTaintEvictionController.DEFAULT_WORKERS;
    int pods = devices * podsPerDevice;
    try (TestApiServer server = TestApiServer.start()) {
      KubernetesClient setup = server.client();
      long t = System.nanoTime();
      populate(setup, devices, podsPerDevice);
      System.out.printf(
          "setup: %d devices, %d claims, %d pods in %.1f s%n",
          devices, devices, pods, (System.nanoTime() - t) / 1e9);

      Counting counting = new Counting();
      try (KubernetesClient client = instrumented(server.server(), counting)) {
        InformerFactory informers = new InformerFactory(client);
        PrometheusRegistry registry = new PrometheusRegistry();
        DeviceTaintEvictionController c =
            DeviceTaintEvictionController.create(
                informers,
                FeatureGates.defaults().with(Feature.DRA_DEVICE_TAINT_RULES, true),
                new DeviceTaintEvictionController.Options(
                    DeviceTaintEvictionController.NAME, workers),
                Clock.system(),
                registry,
                WorkQueueMetrics.create(registry));
        Ctx ctx = Ctx.background("bench").withCancel();
        informers.start(ctx);
        EventRecorder recorder =
            EventRecorder.create(
                client, new EventRecorderOptions(DeviceTaintEvictionController.NAME, "bench"), ctx);
        Thread runner =
            Thread.ofPlatform()
                .start(() -> {
                  try {
                    c.run(ctx, recorder);
                  } catch (Exception e) {
                    e.printStackTrace();
                  }
                });
        informers.waitForCacheSync(ctx, java.time.Duration.ofMinutes(2));
        Thread.sleep(2000); // Let the handlers digest the initial lists.
        long heapBefore = usedHeap();
        Map<String, Long> before = counting.snapshot();

        long t0 = System.nanoTime();
        setup
            .resource(
                new DeviceTaintRuleBuilder()
                    .withNewMetadata()
                    .withName("all-gpus")
                    .endMetadata()
                    .withNewSpec()
                    .withNewDeviceSelector()
                    .withDriver("gpu.example.com")
                    .endDeviceSelector()
                    .withNewTaint()
                    .withKey("gpu.example.com/unhealthy")
                    .withValue("true")
                    .withEffect("NoExecute")
                    .endTaint()
                    .endSpec()
                    .build())
            .create();
        long peakHeap = 0;
        while (deletions(registry) < pods) {
          Thread.sleep(50);
          peakHeap =
              Math.max(
                  peakHeap, Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory());
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        Map<String, Long> after = counting.snapshot();
        long total = 0;
        System.out.printf(
            "evicted %d pods in %.2f s (%.0f pods/s) with %d workers%n",
            pods, seconds, pods / seconds, workers);
        System.out.println("API requests by the controller during the eviction:");
        for (var e : after.entrySet()) {
          long n = e.getValue() - before.getOrDefault(e.getKey(), 0L);
          if (n > 0) {
            total += n;
            System.out.printf("  %-28s %7d (%.0f/s)%n", e.getKey(), n, n / seconds);
          }
        }
        System.out.printf("  %-28s %7d (%.0f/s)%n", "total", total, total / seconds);
        System.out.printf(
            "most pod DELETEs in flight at once: %d%n", counting.maxDeletesInFlight.get());
        System.out.printf(
            "heap used (whole JVM, API server included): before %d MiB, peak %d MiB, after GC %d MiB%n",
            heapBefore >> 20, peakHeap >> 20, usedHeap() >> 20);
        ctx.cancel();
        runner.join();
        recorder.close();
        informers.stop();
      }
    }
  }

  static double deletions(PrometheusRegistry registry) {
    for (var s : registry.scrape()) {
      if (s instanceof CounterSnapshot cs
          && cs.getMetadata().getName().equals("device_taint_eviction_controller_pod_deletions")) {
        return cs.getDataPoints().get(0).getValue();
      }
    }
    return 0;
  }

  static long usedHeap() {
    System.gc();
    return Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
  }

  static KubernetesClient instrumented(EmbeddedApiServer server, Counting counting) {
    ConfigBuilder b =
        new ConfigBuilder().withMasterUrl(server.url().toString()).withRequestRetryBackoffLimit(0);
    if (server.token() != null) {
      b.withOauthToken(server.token());
    }
    if (server.caCertificatePem() != null) {
      b.withCaCertData(
          Base64.getEncoder()
              .encodeToString(server.caCertificatePem().getBytes(StandardCharsets.UTF_8)));
    }
    Config config = b.build();
    // Upstream's default QPS for kube-controller-manager clients would throttle; as here none.
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientBuilderConsumer(h -> h.addOrReplaceInterceptor("count", counting))
        .build();
  }

  /** 1 pool of devices in slices of 125, one claim per device shared by podsPerDevice pods. */
  static void populate(KubernetesClient client, int devices, int podsPerDevice) throws Exception {
    int perSlice = 125;
    int slices = (devices + perSlice - 1) / perSlice;
    for (int s = 0; s < slices; s++) {
      List<Device> ds = new ArrayList<>();
      for (int d = s * perSlice; d < Math.min(devices, (s + 1) * perSlice); d++) {
        ds.add(Make.device("gpu-" + d).obj());
      }
      ResourceSlice slice =
          Make.slice("node-1-gpus-" + s, "node-1", "gpu.example.com")
              .pool("node-1", 1, slices)
              .devices(ds.toArray(Device[]::new))
              .obj();
      client.resource(slice).create();
    }
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int d = 0; d < devices; d++) {
        int device = d;
        fs.add(pool.submit(() -> claimAndPods(client, device, podsPerDevice)));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  static void claimAndPods(KubernetesClient client, int device, int podsPerDevice) {
    String claimName = "claim-" + device;
    List<Pod> pods = new ArrayList<>();
    for (int p = 0; p < podsPerDevice; p++) {
      pods.add(
          client
              .resource(
                  Make.pod("pod-" + device + "-" + p)
                      .namespace("default")
                      .nodeName("node-1")
                      .claim("gpu", claimName)
                      .container("ctr", "gpu")
                      .obj())
              .create());
    }
    ResourceClaim claim =
        client
            .resource(Make.claim(claimName).namespace("default").request("gpu.example.com").obj())
            .create();
    ResourceClaimBuilder b =
        new ResourceClaimBuilder(claim)
            .withNewStatus()
            .withAllocation(
                io.jdra.testing.objects.Allocations.onNode(
                    "node-1", "gpu.example.com", List.of("req-0"), "gpu-" + device))
            .endStatus();
    for (Pod p : pods) {
      b.editStatus()
          .addNewReservedFor()
          .withResource("pods")
          .withName(p.getMetadata().getName())
          .withUid(p.getMetadata().getUid())
          .endReservedFor()
          .endStatus();
    }
    client.resource(b.build()).updateStatus();
  }
}
