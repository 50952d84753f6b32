package io.jdra.exampledriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.jdra.proto.dra.v1.Claim;
import io.jdra.proto.dra.v1.NodePrepareResourceResponse;
import io.jdra.proto.drahealth.v1alpha1.DRAResourceHealthGrpc;
import io.jdra.proto.drahealth.v1alpha1.HealthStatus;
import io.jdra.proto.drahealth.v1alpha1.NodeWatchResourcesRequest;
import io.jdra.proto.drahealth.v1alpha1.NodeWatchResourcesResponse;
import io.jdra.proto.grpchealth.v1.HealthCheckRequest;
import io.jdra.proto.grpchealth.v1.HealthCheckResponse.ServingStatus;
import io.jdra.proto.grpchealth.v1.HealthGrpc;
import io.jdra.proto.pluginregistration.v1.PluginInfo;
import io.jdra.runtime.Ctx;
import io.jdra.testing.apiserver.TestApiServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example driver on real Unix sockets, driven by a client that plays the kubelet, with claims
 * and slices in the embedded API server.
 */
class ExampleDriverTest {
  private static final String DRIVER = "gpu.example.com";
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static TestApiServer server;
  private static KubernetesClient client;
  private static int nodes;

  @TempDir Path dir;
  private String node;
  private ExampleDriver driver;
  private KubeletSim kubelet;
  private final PrometheusRegistry registry = new PrometheusRegistry();

  @BeforeAll
  static void startServer() {
    server = TestApiServer.start();
    client = server.client();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @BeforeEach
  void startDriver() {
    node = "node-" + (++nodes);
    client
        .nodes()
        .resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().build())
        .create();
    driver = ExampleDriver.start(Ctx.background("test"), flags(), client, registry);
    kubelet = new KubeletSim(dir.resolve("registry").resolve(DRIVER + "-reg.sock"));
  }

  @AfterEach
  void stopDriver() throws Exception {
    kubelet.close();
    driver.stop();
    assertThat(dir.resolve("registry").resolve(DRIVER + "-reg.sock")).doesNotExist();
    assertThat(driver.flags().driverPluginPath().resolve("dra.sock")).doesNotExist();
  }

  private Flags flags() {
    return Flags.defaults(node)
        .withDirs(dir.resolve("cdi"), dir.resolve("registry"), dir.resolve("plugins"));
  }

  @Test
  void registersWithBothDraVersionsAndHealth() {
    PluginInfo info = kubelet.register();

    assertThat(info.getType()).isEqualTo("DRAPlugin");
    assertThat(info.getName()).isEqualTo(DRIVER);
    assertThat(info.getEndpoint())
        .isEqualTo(dir.resolve("plugins/gpu.example.com/dra.sock").toString());
    assertThat(info.getSupportedVersionsList())
        .containsExactly("v1.DRAPlugin", "v1beta1.DRAPlugin", "v1alpha1.DRAResourceHealth");
    assertThat(driver.helper().registrationStatus().getPluginRegistered()).isTrue();
  }

  @Test
  void publishesTheGpusOfTheNode() {
    await().atMost(WAIT).until(driver::published);
    List<ResourceSlice> slices =
        client.resources(ResourceSlice.class).list().getItems().stream()
            .filter(s -> node.equals(s.getSpec().getNodeName()))
            .toList();
    assertThat(slices).hasSize(1);
    var devices = slices.get(0).getSpec().getDevices();
    assertThat(devices)
        .extracting(d -> d.getName())
        .containsExactly("gpu-0", "gpu-1", "gpu-2", "gpu-3", "gpu-4", "gpu-5", "gpu-6", "gpu-7");
    var gpu0 = devices.get(0);
    assertThat(gpu0.getAttributes().get("model").getString()).isEqualTo("LATEST-GPU-MODEL");
    assertThat(gpu0.getAttributes().get("driverVersion").getVersion()).isEqualTo("1.0.0");
    assertThat(gpu0.getAttributes().get("index").getInt()).isZero();
    assertThat(gpu0.getAttributes().get("uuid").getString()).startsWith("gpu-");
    assertThat(gpu0.getCapacity().get("memory").getValue().toString()).isEqualTo("80Gi");
    assertThat(gpu0.getCapacity().get("compute").getValue().toString()).isEqualTo("100");
  }

  @Test
  void preparesTwiceTheSameAndUnpreparesOverV1() throws Exception {
    kubelet.register();
    var claim = Claims.claim(client, "c1").device(DRIVER, node, "gpu-1").create();
    Claim ref = KubeletSim.claim("default", "c1", claim.getMetadata().getUid());
    String uid = ref.getUid();

    NodePrepareResourceResponse first = kubelet.prepare(ref);
    NodePrepareResourceResponse second = kubelet.prepare(ref);

    assertThat(first.getError()).isEmpty();
    assertThat(second).isEqualTo(first);
    var device = first.getDevices(0);
    assertThat(device.getRequestNamesList()).containsExactly("gpu");
    assertThat(device.getPoolName()).isEqualTo(node);
    assertThat(device.getDeviceName()).isEqualTo("gpu-1");
    assertThat(device.getCdiDeviceIdsList())
        .containsExactly(
            "k8s.gpu.example.com/gpu=common", "k8s.gpu.example.com/gpu=" + uid + "-gpu-1");
    Path spec = dir.resolve("cdi/k8s.gpu.example.com-gpu_" + uid + ".yaml");
    String yaml = Files.readString(spec);
    assertThat(yaml)
        .contains("cdiVersion: " + (Character.isDigit(uid.charAt(0)) ? "0.5.0" : "0.3.0"))
        .contains("kind: k8s.gpu.example.com/gpu")
        .contains("name: " + uid + "-gpu-1")
        .contains("GPU_DEVICE_GPU_1_RESOURCE_CLAIM=" + uid)
        .contains("DRA_ADMIN_ACCESS=false")
        .contains("GPU_DEVICE_1=gpu-1")
        .contains("GPU_DEVICE_1_SHARING_STRATEGY=TimeSlicing")
        .contains("GPU_DEVICE_1_TIMESLICE_INTERVAL=Default");
    assertThat(Files.readString(dir.resolve("cdi/k8s.gpu.example.com-gpu_common.yaml")))
        .contains("KUBERNETES_NODE_NAME=" + node)
        .contains("DRA_RESOURCE_DRIVER_NAME=gpu.example.com")
        .contains("name: common");
    assertThat(Files.readString(checkpoint()))
        .contains("\"uid\": \"" + uid + "\"")
        .contains("checkpoint.internal.example.com/v1");

    Files.delete(spec);
    assertThat(kubelet.prepare(ref)).as("a lost spec is written again").isEqualTo(first);
    assertThat(spec).exists();

    assertThat(kubelet.unprepare(ref)).isEmpty();
    assertThat(spec).doesNotExist();
    assertThat(Files.readString(checkpoint())).doesNotContain(uid);
    assertThat(kubelet.unprepare(ref)).as("unprepare is idempotent").isEmpty();
  }

  @Test
  void v1beta1GivesTheSameDevices() {
    kubelet.register();
    var claim = Claims.claim(client, "c2").device(DRIVER, node, "gpu-2").create();
    var beta = io.jdra.proto.dra.v1beta1.DRAPluginGrpc.newBlockingStub(kubelet.dra());
    var ref =
        io.jdra.proto.dra.v1beta1.Claim.newBuilder()
            .setNamespace("default")
            .setName("c2")
            .setUid(claim.getMetadata().getUid())
            .build();

    var resp =
        beta.nodePrepareResources(
                io.jdra.proto.dra.v1beta1.NodePrepareResourcesRequest.newBuilder()
                    .addClaims(ref)
                    .build())
            .getClaimsOrThrow(ref.getUid());

    assertThat(resp.getError()).isEmpty();
    assertThat(resp.getDevices(0).getDeviceName()).isEqualTo("gpu-2");
    assertThat(resp.getDevices(0).getCdiDeviceIdsList()).hasSize(2);
    var un =
        beta.nodeUnprepareResources(
            io.jdra.proto.dra.v1beta1.NodeUnprepareResourcesRequest.newBuilder()
                .addClaims(ref)
                .build());
    assertThat(un.getClaimsOrThrow(ref.getUid()).getError()).isEmpty();
  }

  @Test
  void badClaimsGetPerClaimErrorsAndLeaveNothingBehind() throws Exception {
    kubelet.register();
    var unallocated = Claims.claim(client, "unallocated").create();
    var other = Claims.claim(client, "other").device("net.example.com", node, "nic-0").create();
    var badConfig =
        Claims.claim(client, "bad-config")
            .device(DRIVER, node, "gpu-3")
            .config(
                "FromClaim",
                DRIVER,
                Map.of(
                    "apiVersion",
                    "gpu.resource.example.com/v1alpha1",
                    "kind",
                    "GpuConfig",
                    "sharing",
                    Map.of("strategy", "Blinking")))
            .create();
    var badKind =
        Claims.claim(client, "bad-kind")
            .device(DRIVER, node, "gpu-3")
            .config(
                "FromClass",
                DRIVER,
                Map.of("apiVersion", "gpu.resource.example.com/v1alpha1", "kind", "NetConfig"))
            .create();
    var unknownDevice =
        Claims.claim(client, "unknown-device").device(DRIVER, node, "gpu-99").create();

    assertThat(kubelet.prepare(KubeletSim.claim("default", "missing", "uid-missing")).getError())
        .isEqualTo("retrieve claim default/missing: not found");
    assertThat(
            kubelet
                .prepare(KubeletSim.claim("default", "unallocated", uid(unallocated)))
                .getError())
        .isEqualTo("claim default/unallocated not allocated");
    assertThat(kubelet.prepare(KubeletSim.claim("default", "unallocated", "stale-uid")).getError())
        .startsWith("claim default/unallocated got replaced");
    assertThat(kubelet.prepare(KubeletSim.claim("default", "other", uid(other))).getError())
        .isEqualTo("claim default/other has no device allocated by driver gpu.example.com");
    assertThat(
            kubelet.prepare(KubeletSim.claim("default", "bad-config", uid(badConfig))).getError())
        .isEqualTo(
            "error preparing devices for claim "
                + uid(badConfig)
                + ": prepare failed: error applying config: error validating GPU config: unknown GPU sharing strategy: Blinking");
    assertThat(kubelet.prepare(KubeletSim.claim("default", "bad-kind", uid(badKind))).getError())
        .contains(
            "error getting opaque device configs: error decoding config parameters: no kind \"NetConfig\" is registered for version \"gpu.resource.example.com/v1alpha1\"");
    assertThat(
            kubelet
                .prepare(KubeletSim.claim("default", "unknown-device", uid(unknownDevice)))
                .getError())
        .endsWith("requested device is not allocatable: gpu-99");

    try (var files = Files.list(dir.resolve("cdi"))) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactly("k8s.gpu.example.com-gpu_common.yaml");
    }
    assertThat(checkpoint()).doesNotExist();
  }

  @Test
  void refusesADeviceAlreadyPreparedForAnotherClaim() {
    kubelet.register();
    var a = Claims.claim(client, "first").device(DRIVER, node, "gpu-4").create();
    var b = Claims.claim(client, "second").device(DRIVER, node, "gpu-4").create();

    assertThat(kubelet.prepare(KubeletSim.claim("default", "first", uid(a))).getError()).isEmpty();
    assertThat(kubelet.prepare(KubeletSim.claim("default", "second", uid(b))).getError())
        .endsWith("device " + node + "/gpu-4 is already prepared for claim " + uid(a));

    assertThat(kubelet.unprepare(KubeletSim.claim("default", "first", uid(a)))).isEmpty();
    assertThat(kubelet.prepare(KubeletSim.claim("default", "second", uid(b))).getError()).isEmpty();
  }

  @Test
  void anUnwritableCdiDirectoryFailsThePrepareOnly() throws Exception {
    kubelet.register();
    var c = Claims.claim(client, "c3").device(DRIVER, node, "gpu-5").create();
    Path cdi = dir.resolve("cdi");
    try (var files = Files.list(cdi)) {
      for (Path p : files.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(cdi);
    Files.writeString(cdi, "not a directory");

    String error = kubelet.prepare(KubeletSim.claim("default", "c3", uid(c))).getError();

    assertThat(error)
        .startsWith(
            "error preparing devices for claim "
                + uid(c)
                + ": prepare failed: unable to create CDI spec file for claim: write CDI spec "
                + cdi);
    assertThat(checkpoint()).doesNotExist();
    Files.delete(cdi);
    Files.createDirectory(cdi);
    assertThat(kubelet.prepare(KubeletSim.claim("default", "c3", uid(c))).getError())
        .as("a retry succeeds")
        .isEmpty();
  }

  @Test
  void streamsDeviceHealthChangesFromTheHealthFile() throws Exception {
    kubelet.register();
    LinkedBlockingQueue<NodeWatchResourcesResponse> updates = new LinkedBlockingQueue<>();
    Context.CancellableContext call = Context.current().withCancellation();
    try {
      call.run(() ->
          DRAResourceHealthGrpc.newStub(kubelet.dra())
              .nodeWatchResources(
                  NodeWatchResourcesRequest.getDefaultInstance(),
                  new StreamObserver<>() {
                    @Override
                    public void onNext(NodeWatchResourcesResponse v) {
                      updates.add(v);
                    }

                    @Override
                    public void onError(Throwable t) {}

                    @Override
                    public void onCompleted() {}
                  }));
      NodeWatchResourcesResponse initial = updates.poll(10, TimeUnit.SECONDS);
      assertThat(initial.getDevicesList())
          .hasSize(8)
          .allSatisfy(d -> assertThat(d.getHealth()).isEqualTo(HealthStatus.HEALTHY));
      assertThat(initial.getDevices(0).getDevice().getPoolName()).isEqualTo(node);

      Files.writeString(driver.healthFile(), "# simulated\ngpu-6 UNHEALTHY fan failure\n");

      NodeWatchResourcesResponse changed = updates.poll(10, TimeUnit.SECONDS);
      var gpu6 =
          changed.getDevicesList().stream()
              .filter(d -> d.getDevice().getDeviceName().equals("gpu-6"))
              .findFirst()
              .orElseThrow();
      assertThat(gpu6.getHealth()).isEqualTo(HealthStatus.UNHEALTHY);
      assertThat(gpu6.getMessage()).isEqualTo("fan failure");
      assertThat(gpu6.getLastUpdatedTime()).isPositive();
    } finally {
      call.cancel(null);
    }
  }

  @Test
  void concurrentPreparesAndUnpreparesAllHoldAndShareCheckpointWrites() throws Exception {
    kubelet.register();
    List<Claim> refs = new java.util.ArrayList<>();
    for (int i = 0; i < 8; i++) {
      var c = Claims.claim(client, "par-" + i).device(DRIVER, node, "gpu-" + i).create();
      refs.add(KubeletSim.claim("default", "par-" + i, uid(c)));
    }
    long writesBefore = driver.checkpointWrites();

    List<String> errors = inParallel(refs, r -> kubelet.prepare(r).getError());

    assertThat(errors).containsOnly("");
    String onDisk = Files.readString(checkpoint());
    assertThat(refs).allSatisfy(r -> assertThat(onDisk).contains(r.getUid()));
    assertThat(driver.checkpointWrites() - writesBefore).isBetween(1L, 8L);
    assertThat(refs)
        .allSatisfy(r ->
            assertThat(dir.resolve("cdi/k8s.gpu.example.com-gpu_" + r.getUid() + ".yaml"))
                .exists());

    assertThat(inParallel(refs, kubelet::unprepare)).containsOnly("");

    String after = Files.readString(checkpoint());
    assertThat(refs).allSatisfy(r -> assertThat(after).doesNotContain(r.getUid()));
    assertThat(refs)
        .allSatisfy(r ->
            assertThat(dir.resolve("cdi/k8s.gpu.example.com-gpu_" + r.getUid() + ".yaml"))
                .doesNotExist());
  }

  @Test
  void duringARollingUpdateEachInstanceSeesWhatTheOtherWrote() throws Exception {
    Flags base = flags();
    ExampleDriver older =
        ExampleDriver.start(Ctx.background("test"), withPodUid(base, "old"), client);
    ExampleDriver newer =
        ExampleDriver.start(Ctx.background("test"), withPodUid(base, "new"), client);
    Path registry = dir.resolve("registry");
    try (KubeletSim toOld = new KubeletSim(registry.resolve(DRIVER + "-old-reg.sock"));
        KubeletSim toNew = new KubeletSim(registry.resolve(DRIVER + "-new-reg.sock"))) {
      assertThat(toOld.register().getEndpoint()).endsWith("dra-old.sock");
      toNew.register();
      var first = Claims.claim(client, "ru-1").device(DRIVER, node, "gpu-2").create();
      var second = Claims.claim(client, "ru-2").device(DRIVER, node, "gpu-2").create();
      Claim ref1 = KubeletSim.claim("default", "ru-1", uid(first));
      Claim ref2 = KubeletSim.claim("default", "ru-2", uid(second));

      assertThat(toOld.prepare(ref1).getError()).isEmpty();
      assertThat(toNew.prepare(ref2).getError())
          .as("the new instance knows gpu-2 is prepared by the old one")
          .contains("device " + node + "/gpu-2 is already prepared for claim " + uid(first));
      assertThat(toNew.unprepare(ref1)).isEmpty();
      assertThat(Files.readString(checkpoint())).doesNotContain(uid(first));
      assertThat(toOld.prepare(ref2).getError())
          .as("the old instance knows the new one unprepared the claim")
          .isEmpty();
    } finally {
      older.stop();
      newer.stop();
    }
  }

  @Test
  void countsPreparesAndUnpreparesByResultInUpstreamsMetrics() throws Exception {
    kubelet.register();
    var ok = Claims.claim(client, "m1").device(DRIVER, node, "gpu-0").create();
    var bad = Claims.claim(client, "m2").device(DRIVER, node, "gpu-99").create();

    assertThat(kubelet.prepare(KubeletSim.claim("default", "m1", uid(ok))).getError()).isEmpty();
    assertThat(kubelet.prepare(KubeletSim.claim("default", "m2", uid(bad))).getError())
        .contains("requested device is not allocatable: gpu-99");
    assertThat(kubelet.unprepare(KubeletSim.claim("default", "m1", uid(ok)))).isEmpty();

    String text = scrape();
    assertThat(text)
        .contains(
            "# HELP dra_example_driver_prepare_claims_total [BETA] Total number of resource claim"
                + " prepare operations handled by the driver.")
        .contains("dra_example_driver_prepare_claims_total{result=\"success\"} 1")
        .contains("dra_example_driver_prepare_claims_total{result=\"error\"} 1")
        .contains("dra_example_driver_unprepare_claims_total{result=\"success\"} 1")
        .contains("dra_example_driver_unprepare_claims_total{result=\"error\"} 0")
        .contains("dra_example_driver_prepare_claim_duration_seconds_count{result=\"success\"} 1")
        .contains(
            "dra_example_driver_prepare_claim_duration_seconds_bucket{result=\"success\",le=\"0.005\"}")
        .contains(
            "dra_example_driver_unprepare_claim_duration_seconds_bucket{result=\"success\",le=\"10.0\"} 1")
        .contains("dra_example_driver_fatal_background_errors_total 0");
  }

  @Test
  void theHealthcheckProbesRegistrationAndTheDraServiceAsTheKubeletWould() throws Exception {
    Flags base = flags();
    Flags healthy =
        copy(base, null, 0)
            .withDirs(dir.resolve("cdi-h"), dir.resolve("registry-h"), dir.resolve("plugins-h"));
    ExampleDriver withHealth = ExampleDriver.start(Ctx.background("test"), healthy, client);
    Flags broken =
        copy(base, null, 0)
            .withDirs(dir.resolve("cdi-b"), dir.resolve("registry-b"), dir.resolve("plugins-b"));
    ExampleDriver withoutDraSocket = ExampleDriver.start(Ctx.background("test"), broken, client);
    try {
      assertThat(driver.healthcheckPort()).as("off by default").isEqualTo(-1);
      assertThat(health(withHealth.healthcheckPort(), "")).isEqualTo(ServingStatus.SERVING);
      assertThat(health(withHealth.healthcheckPort(), "liveness")).isEqualTo(ServingStatus.SERVING);
      assertThatThrownBy(() -> health(withHealth.healthcheckPort(), "readiness"))
          .isInstanceOf(StatusRuntimeException.class)
          .hasMessage("NOT_FOUND: unknown service");

      Files.delete(broken.driverPluginPath().resolve("dra.sock"));
      assertThat(health(withoutDraSocket.healthcheckPort(), ""))
          .isEqualTo(ServingStatus.NOT_SERVING);
    } finally {
      withHealth.stop();
      withoutDraSocket.stop();
    }
  }

  private static ServingStatus health(int port, String service) throws InterruptedException {
    ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    try {
      return HealthGrpc.newBlockingStub(ch)
          .withDeadlineAfter(20, TimeUnit.SECONDS)
          .check(HealthCheckRequest.newBuilder().setService(service).build())
          .getStatus();
    } finally {
      ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private String scrape() throws java.io.IOException {
    var out = new java.io.ByteArrayOutputStream();
    io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter.create()
        .write(out, registry.scrape());
    return out.toString(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static Flags withPodUid(Flags f, String podUid) {
    return copy(f, podUid, f.healthcheckPort());
  }

  private static Flags copy(Flags f, String podUid, int healthcheckPort) {
    return new Flags(
        f.nodeName(),
        f.cdiRoot(),
        f.numDevices(),
        f.kubeletRegistrarDirectoryPath(),
        f.kubeletPluginsDirectoryPath(),
        healthcheckPort,
        f.metricsPort(),
        f.profile(),
        f.driverName(),
        podUid,
        f.gpuPartitions(),
        f.gpuDeviceStatus(),
        f.bindingConditions(),
        f.gpuAllowMultipleAllocations(),
        f.cpuNumaNodes(),
        f.cpusPerNumaNode());
  }

  /** Runs {@code call} for every claim at once, one thread each; the results in claim order. */
  private static List<String> inParallel(
      List<Claim> refs, java.util.function.Function<Claim, String> call) throws Exception {
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(refs.size());
    List<java.util.concurrent.Future<String>> results = new java.util.ArrayList<>();
    try (var pool = java.util.concurrent.Executors.newFixedThreadPool(refs.size())) {
      for (Claim r : refs) {
        results.add(
            pool.submit(() -> {
              start.await();
              return call.apply(r);
            }));
      }
      List<String> out = new java.util.ArrayList<>();
      for (var f : results) {
        out.add(f.get(30, TimeUnit.SECONDS));
      }
      return out;
    }
  }

  private Path checkpoint() {
    return driver.flags().driverPluginPath().resolve("checkpoint.json");
  }

  private static String uid(io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim c) {
    return c.getMetadata().getUid();
  }
}
