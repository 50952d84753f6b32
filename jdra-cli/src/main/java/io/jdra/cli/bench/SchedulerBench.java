package io.jdra.cli.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.jdra.apiserver.ApiServerOptions;
import io.jdra.apiserver.EmbeddedApiServer;
import io.jdra.controllers.manager.ControllerManager;
import io.jdra.controllers.manager.ControllerManagerOptions;
import io.jdra.runtime.Ctx;
import io.jdra.scheduler.SchedulerOptions;
import io.jdra.scheduler.SchedulerServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Runs one scheduler_perf DRA workload in this process: the embedded API server, the ResourceClaim
 * controller and the scheduler, each with its own unthrottled client (as scheduler_perf's clients),
 * nodes and ResourceSlices created directly (no kubelets, as upstream's createNodes and
 * createResourceDriver), pods from upstream's templates.
 */
public final class SchedulerBench {
  static final String DRIVER = "test-driver.cdi.k8s.io";
  private static final int CREATE_PARALLELISM = 16; // upstream creates pods with 16 workers

  private final Workload workload;
  private final Path templates;
  private final Duration timeout;
  private final PrintWriter progress;

  public SchedulerBench(Workload workload, Path templates, Duration timeout, PrintWriter progress) {
    this.workload = workload;
    this.templates = templates;
    this.timeout = timeout;
    this.progress = progress;
  }

  /** Runs the workload; the result says whether the final state is correct. */
  public BenchResult run() throws Exception {
    Ctx ctx = Ctx.background("bench");
    try (EmbeddedApiServer server = EmbeddedApiServer.start(ApiServerOptions.inMemory());
        KubernetesClient setup = newClient(server);
        KubernetesClient controllerClient = newClient(server);
        KubernetesClient schedulerClient = newClient(server)) {
      createCluster(setup);
      ControllerManager.Handle cm =
          ControllerManager.start(
              ctx.withName("controller-manager"),
              controllerClient,
              ControllerManagerOptions.defaults()
                  .withControllers(List.of("resourceclaim-controller")));
      PrometheusRegistry registry = new PrometheusRegistry();
      SchedulerServer.Handle scheduler =
          SchedulerServer.start(
              ctx.withName("scheduler"),
              schedulerClient,
              SchedulerOptions.defaults().withRegistry(registry));
      try {
        cm.synced().get(timeout.toSeconds(), TimeUnit.SECONDS);
        scheduler.synced().get(timeout.toSeconds(), TimeUnit.SECONDS);
        createPods(setup, "init", workload.initPods(), null);
        Throughput.Tracker tracker = new Throughput.Tracker();
        SharedIndexInformer<Pod> informer = watchBinds(setup, tracker);
        try {
          Throughput.Sampler sampler = new Throughput.Sampler(tracker, progress, "test");
          sampler.start();
          createPods(setup, "test", workload.measurePods(), tracker);
          boolean all = tracker.awaitBound(workload.measurePods(), timeout);
          Throughput throughput = sampler.stop();
          Correctness correctness = Correctness.check(setup, List.of("init", "test"), DRIVER);
          return new BenchResult(
              workload,
              throughput,
              tracker.latenciesMillis(),
              Attempts.read(registry),
              all ? correctness : correctness.withTimeout(tracker.boundCount(), timeout));
        } finally {
          informer.close();
        }
      } finally {
        scheduler.stop();
        cm.stop();
        ctx.cancel();
      }
    }
  }

  /** Nodes, slices, the device class and the claim templates, as the workload's first ops. */
  private void createCluster(KubernetesClient c) throws IOException {
    for (String ns : List.of("init", "test")) {
      c.namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
    }
    for (int i = 0; i < workload.nodesWithoutDra(); i++) {
      Node n = plainNode("node-" + i);
      c.nodes().resource(n).create();
    }
    for (int i = 0; i < workload.nodesWithDra(); i++) {
      Node n = load("node-with-dra-test-driver.yaml", Map.of("Index", i), Node.class);
      defaultAllocatable(n);
      c.nodes().resource(n).create();
      c.resource(slice(n.getMetadata().getName(), workload.maxClaimsPerNode())).create();
    }
    c.resource(load("deviceclass.yaml", Map.of(), HasMetadata.class)).create();
    for (String ns : List.of("init", "test")) {
      HasMetadata t = load("resourceclaimtemplate.yaml", Map.of(), HasMetadata.class);
      t.getMetadata().setNamespace(ns);
      c.resource(t).create();
    }
    progress.printf(
        "created %d nodes, %d ResourceSlices with %d devices each%n",
        workload.nodesWithDra() + workload.nodesWithoutDra(),
        workload.nodesWithDra(),
        workload.maxClaimsPerNode());
    progress.flush();
  }

  // A real API server copies capacity into an empty allocatable (Node status defaulting); the
  // embedded one stores what it is given, so the benchmark does it for the template's nodes.
  private static void defaultAllocatable(Node n) {
    if (n.getStatus() != null
        && n.getStatus().getCapacity() != null
        && (n.getStatus().getAllocatable() == null || n.getStatus().getAllocatable().isEmpty())) {
      n.getStatus().setAllocatable(new HashMap<>(n.getStatus().getCapacity()));
    }
  }

  private static Node plainNode(String name) {
    Map<String, Quantity> cap =
        Map.of(
            "pods", new Quantity("110"), "cpu", new Quantity("4"), "memory", new Quantity("32Gi"));
    return new io.fabric8.kubernetes.api.model.NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewStatus()
        .withCapacity(cap)
        .withAllocatable(cap)
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .endCondition()
        .endStatus()
        .build();
  }

  /** One slice per node, shaped as scheduler_perf's createResourceDriver publishes it. */
  static ResourceSlice slice(String nodeName, int capacity) {
    List<Device> devices = new ArrayList<>();
    for (int i = 0; i < capacity; i++) {
      Map<String, DeviceAttribute> attrs = new HashMap<>();
      attrs.put("model", attr(a -> a.setString("A100")));
      attrs.put("family", attr(a -> a.setString("GPU")));
      attrs.put("driverVersion", attr(a -> a.setVersion("1.2.3")));
      final long numa = i;
      attrs.put("dra.example.com/numa", attr(a -> a.setInt(numa)));
      Device d = new Device();
      d.setName("instance-" + i);
      d.setAttributes(attrs);
      d.setCapacity(Map.of("memory", new DeviceCapacity(null, new Quantity("1Gi"))));
      devices.add(d);
    }
    return new ResourceSliceBuilder()
        .withNewMetadata()
        .withName(nodeName + "-" + DRIVER)
        .endMetadata()
        .withNewSpec()
        .withDriver(DRIVER)
        .withNodeName(nodeName)
        .withNewPool()
        .withName(nodeName)
        .withGeneration(1L)
        .withResourceSliceCount(1L)
        .endPool()
        .withDevices(devices)
        .endSpec()
        .build();
  }

  private static DeviceAttribute attr(java.util.function.Consumer<DeviceAttribute> set) {
    DeviceAttribute a = new DeviceAttribute();
    set.accept(a);
    return a;
  }

  /** Creates {@code count} pods with 16 workers and waits until all are bound. */
  private void createPods(KubernetesClient c, String ns, int count, Throughput.Tracker tracker)
      throws Exception {
    if (count == 0) {
      return;
    }
    String text = Files.readString(templates.resolve("pod-with-claim-template.yaml"));
    IntFunction<Pod> pod =
        i -> {
          Pod p =
              Serialization.unmarshal(
                  GoTemplate.render("pod-with-claim-template.yaml", text, Map.of("Index", i)),
                  Pod.class);
          p.getMetadata().setNamespace(ns);
          return p;
        };
    ExecutorService pool = Executors.newFixedThreadPool(CREATE_PARALLELISM);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        Pod p = pod.apply(i);
        futures.add(
            pool.submit(() -> {
              long start = System.nanoTime();
              Pod created = c.pods().inNamespace(ns).resource(p).create();
              if (tracker != null) {
                tracker.created(created.getMetadata().getUid(), start);
              }
            }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    if (tracker == null) {
      awaitScheduled(c, ns, count);
    }
  }

  private void awaitScheduled(KubernetesClient c, String ns, int count) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long bound =
          c.pods().inNamespace(ns).list().getItems().stream()
              .filter(p -> p.getSpec().getNodeName() != null)
              .count();
      progress.printf("%s: %d/%d pods scheduled%n", ns, bound, count);
      progress.flush();
      if (bound >= count) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "only "
                + bound
                + " of "
                + count
                + " pods in namespace "
                + ns
                + " scheduled in "
                + timeout);
      }
      Thread.sleep(1000);
    }
  }

  private static SharedIndexInformer<Pod> watchBinds(KubernetesClient c, Throughput.Tracker t) {
    SharedIndexInformer<Pod> informer =
        c.pods()
            .inNamespace("test")
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(Pod p) {
                    seen(p);
                  }

                  @Override
                  public void onUpdate(Pod o, Pod p) {
                    seen(p);
                  }

                  @Override
                  public void onDelete(Pod p, boolean unknown) {}

                  private void seen(Pod p) {
                    if (p.getSpec().getNodeName() != null) {
                      t.bound(p.getMetadata().getUid(), System.nanoTime());
                    }
                  }
                },
                0);
    return informer;
  }

  /** A plain fabric8 client without client-side rate limits, as scheduler_perf's clients. */
  static KubernetesClient newClient(EmbeddedApiServer server) {
    ConfigBuilder b =
        new ConfigBuilder()
            .withMasterUrl(server.url().toString())
            .withNamespace("default")
            .withRequestRetryBackoffLimit(0)
            // A request queued behind a burst of creates on a loaded machine is slow, not lost.
            .withRequestTimeout((int) Duration.ofMinutes(5).toMillis())
            .withMaxConcurrentRequests(1024)
            .withMaxConcurrentRequestsPerHost(1024);
    if (server.token() != null) {
      b.withOauthToken(server.token());
    }
    if (server.caCertificatePem() != null) {
      b.withCaCertData(
          java.util.Base64.getEncoder()
              .encodeToString(server.caCertificatePem().getBytes(StandardCharsets.UTF_8)));
    }
    Config config = b.build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  private <T> T load(String file, Map<String, Object> params, Class<T> type) throws IOException {
    String text = Files.readString(templates.resolve(file));
    return Serialization.unmarshal(GoTemplate.render(file, text, params), type);
  }
}
