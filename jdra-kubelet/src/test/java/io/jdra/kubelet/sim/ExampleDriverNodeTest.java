package io.jdra.kubelet.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.exampledriver.ExampleDriver;
import io.jdra.exampledriver.Flags;
import io.jdra.kubelet.Kubelet;
import io.jdra.kubelet.KubeletOptions;
import io.jdra.runtime.Ctx;
import io.jdra.testing.apiserver.TestApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulated node with the project's example driver (a real driver: its own gRPC servers,
 * ResourceSlices and CDI specs) on the embedded API server: a pod with an allocated, reserved claim
 * and {@code spec.nodeName} set reaches Running, its log (through the API server's pods/log) shows
 * the GPU environment from the driver's CDI spec, and deleting the pod unprepares the claim, which
 * removes the claim's CDI spec.
 */
class ExampleDriverNodeTest {
  static final String DRIVER = "gpu.example.com";

  @TempDir Path root;
  TestApiServer api;
  KubernetesClient client;
  KubeletServer server;
  Kubelet.Handle kubelet;
  ExampleDriver driver;
  Ctx ctx;

  @BeforeEach
  void setUp() throws Exception {
    api = TestApiServer.start();
    client = api.client();
    server = KubeletServer.start("127.0.0.1", 0);
    ctx = Ctx.background("example-driver-node").withCancel();
    kubelet = Kubelet.start(ctx, KubeletOptions.of(client, "node-1", root, server));
    kubelet.ready().get(30, TimeUnit.SECONDS);
    driver =
        ExampleDriver.start(
            ctx,
            Flags.defaults("node-1")
                .withDirs(
                    root.resolve("cdi"), root.resolve("plugins_registry"), root.resolve("plugins")),
            client);
  }

  @AfterEach
  void tearDown() throws Exception {
    driver.stop();
    kubelet.stop();
    ctx.cancel();
    server.close();
    api.close();
  }

  @Test
  void podRunsWithTheGpuEnvironmentAndDeletionRemovesTheCdiSpec() throws Exception {
    // One assertion each, so that a timeout says which step did not happen.
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> {
          assertThat(kubelet.plugins().registeredDrivers()).as("registered").contains(DRIVER);
          assertThat(driver.published()).as("driver published its slices").isTrue();
          assertThat(slices()).as("slices of node-1").isNotEmpty();
        });
    ResourceSlice slice = slices().get(0);
    String device = slice.getSpec().getDevices().get(0).getName();

    Pod pod =
        client
            .pods()
            .inNamespace("default")
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("pod0")
                    .endMetadata()
                    .withNewSpec()
                    .withNodeName("node-1")
                    .addNewResourceClaim()
                    .withName("gpu")
                    .withResourceClaimName("single-gpu")
                    .endResourceClaim()
                    .addNewContainer()
                    .withName("ctr0")
                    .withImage("ubuntu:22.04")
                    .withCommand("bash", "-c")
                    .withArgs("export; trap 'exit 0' TERM; sleep 9999 & wait")
                    .withNewResources()
                    .addNewClaim()
                    .withName("gpu")
                    .endClaim()
                    .endResources()
                    .endContainer()
                    .endSpec()
                    .build())
            .create();
    ResourceClaim claim =
        allocatedClaim("single-gpu", pod, slice.getSpec().getPool().getName(), device);
    String uid = claim.getMetadata().getUid();

    await().atMost(Duration.ofSeconds(30)).until(() -> "Running".equals(phase("pod0")));
    assertThat(cdiSpecsMentioning(uid)).isNotEmpty();
    String log = client.pods().inNamespace("default").withName("pod0").getLog();
    assertThat(log).contains("declare -x GPU_DEVICE_0=\"" + device + "\"");

    client.pods().inNamespace("default").withName("pod0").delete();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.pods().inNamespace("default").withName("pod0").get() == null);
    assertThat(cdiSpecsMentioning(uid)).isEmpty();
    assertThat(kubelet.manager().podMightNeedToUnprepareResources(pod.getMetadata().getUid()))
        .isFalse();
  }

  List<ResourceSlice> slices() {
    return client
        .resources(ResourceSlice.class)
        .withField("spec.nodeName", "node-1")
        .list()
        .getItems();
  }

  List<Path> cdiSpecsMentioning(String claimUid) throws Exception {
    try (Stream<Path> files = Files.list(root.resolve("cdi"))) {
      return files
          .filter(f -> {
            try {
              return Files.readString(f).contains(claimUid);
            } catch (Exception e) {
              return false;
            }
          })
          .toList();
    }
  }

  String phase(String name) {
    Pod p = client.pods().inNamespace("default").withName(name).get();
    return p == null || p.getStatus() == null ? null : p.getStatus().getPhase();
  }

  ResourceClaim allocatedClaim(String name, Pod pod, String pool, String device) {
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
                    .withName("gpu")
                    .withNewExactly()
                    .withDeviceClassName(DRIVER)
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
            .withRequest("gpu")
            .withDriver(DRIVER)
            .withPool(pool)
            .withDevice(device)
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
