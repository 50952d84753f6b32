package io.jdra.kubelet.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.kubelet.Kubelet;
import io.jdra.kubelet.KubeletOptions;
import io.jdra.kubelet.dra.state.FileCheckpointer;
import io.jdra.kubelet.fake.FakeDriver;
import io.jdra.runtime.Ctx;
import io.jdra.testing.apiserver.TestApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulated node against the embedded API server with a fake driver on real sockets: a pod with
 * an allocated, reserved claim and {@code spec.nodeName} set reaches Running with the CDI
 * environment, its log is served through pods/log, and deleting it unprepares the claim.
 */
class SimulatedNodeTest {
  static final String DRIVER = "gpu.example.com";

  @TempDir Path root;
  TestApiServer api;
  KubernetesClient client;
  KubeletServer server;
  Kubelet.Handle kubelet;
  FakeDriver driver;
  Ctx ctx;

  @BeforeEach
  void setUp() throws Exception {
    api = TestApiServer.start();
    client = api.client();
    server = KubeletServer.start("127.0.0.1", 0);
    ctx = Ctx.background("kubelet-it").withCancel();
    kubelet = Kubelet.start(ctx, KubeletOptions.of(client, "node-1", root, server));
    kubelet.ready().get(30, java.util.concurrent.TimeUnit.SECONDS);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (driver != null) {
      driver.close();
    }
    kubelet.stop();
    ctx.cancel();
    server.close();
    api.close();
  }

  @Test
  void nodeIsRegisteredReadyWithLease() {
    var node = client.nodes().withName("node-1").get();
    assertThat(node.getMetadata().getLabels())
        .containsEntry("kubernetes.io/hostname", "node-1")
        .containsEntry("kubernetes.io/os", "linux")
        .containsEntry("kubernetes.io/arch", "amd64");
    assertThat(node.getStatus().getAllocatable()).containsKeys("cpu", "memory", "pods");
    assertThat(node.getStatus().getConditions())
        .anySatisfy(c -> {
          assertThat(c.getType()).isEqualTo("Ready");
          assertThat(c.getStatus()).isEqualTo("True");
        });
    assertThat(node.getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort())
        .isEqualTo(server.port());
    Lease lease = client.leases().inNamespace("kube-node-lease").withName("node-1").get();
    assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("node-1");
  }

  @Test
  void podWithClaimRunsShowsItsGpuEnvironmentAndIsUnpreparedOnDelete() throws Exception {
    startDriver();

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
    ResourceClaim claim = createAllocatedClaim("single-gpu", pod);
    // What the driver would have written: the CDI spec for the claim's device.
    Files.createDirectories(root.resolve("cdi"));
    Files.writeString(
        root.resolve("cdi").resolve("k8s." + DRIVER + "-claim.json"),
        """
        {"cdiVersion":"0.5.0","kind":"%s/gpu",
         "containerEdits":{"env":["DRA_RESOURCE_DRIVER_NAME=%s"]},
         "devices":[{"name":"%s","containerEdits":{"env":["GPU_DEVICE_0=gpu-0"]}}]}
        """
            .formatted(DRIVER, DRIVER, claim.getMetadata().getUid()));

    await().atMost(Duration.ofSeconds(60)).until(() -> "Running".equals(phase("pod0")));
    Pod running = client.pods().inNamespace("default").withName("pod0").get();
    assertThat(running.getStatus().getPodIP()).startsWith("10.");
    assertThat(running.getStatus().getContainerStatuses())
        .singleElement()
        .satisfies(cs -> {
          assertThat(cs.getReady()).isTrue();
          assertThat(cs.getState().getRunning()).isNotNull();
        });
    assertThat(driver.prepareCalls).containsExactly(List.of(claim.getMetadata().getUid()));

    String log = client.pods().inNamespace("default").withName("pod0").getLog();
    assertThat(log)
        .contains("declare -x GPU_DEVICE_0=\"gpu-0\"")
        .contains("declare -x DRA_RESOURCE_DRIVER_NAME=\"" + DRIVER + "\"")
        .contains("declare -x HOSTNAME=\"pod0\"");

    client.pods().inNamespace("default").withName("pod0").delete();
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> client.pods().inNamespace("default").withName("pod0").get() == null);
    assertThat(driver.unprepareCalls).containsExactly(List.of(claim.getMetadata().getUid()));
    assertThat(new FileCheckpointer(root, FileCheckpointer.DRA_MANAGER_STATE).getOrCreate())
        .isEmpty();
  }

  @Test
  void initContainersRunFirstWithTheirClaimsDevicesAndComplete() throws Exception {
    startDriver();
    Pod pod =
        client
            .pods()
            .inNamespace("default")
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("pod-init")
                    .endMetadata()
                    .withNewSpec()
                    .withNodeName("node-1")
                    .addNewResourceClaim()
                    .withName("gpu")
                    .withResourceClaimName("shared")
                    .endResourceClaim()
                    .addNewInitContainer()
                    .withName("init0")
                    .withImage("ubuntu:22.04")
                    .withCommand("bash", "-c")
                    .withArgs("export")
                    .withNewResources()
                    .addNewClaim()
                    .withName("gpu")
                    .endClaim()
                    .endResources()
                    .endInitContainer()
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
    ResourceClaim claim = createAllocatedClaim("shared", pod);
    Files.createDirectories(root.resolve("cdi"));
    Files.writeString(
        root.resolve("cdi").resolve("k8s." + DRIVER + "-claim.json"),
        """
        {"cdiVersion":"0.5.0","kind":"%s/gpu",
         "devices":[{"name":"%s","containerEdits":{"env":["GPU_DEVICE_0=gpu-0"]}}]}
        """
            .formatted(DRIVER, claim.getMetadata().getUid()));

    await().atMost(Duration.ofSeconds(60)).until(() -> "Running".equals(phase("pod-init")));
    Pod running = client.pods().inNamespace("default").withName("pod-init").get();
    assertThat(running.getStatus().getInitContainerStatuses())
        .singleElement()
        .satisfies(cs -> {
          assertThat(cs.getName()).isEqualTo("init0");
          assertThat(cs.getState().getTerminated().getReason()).isEqualTo("Completed");
          assertThat(cs.getState().getTerminated().getExitCode()).isZero();
          assertThat(cs.getReady()).isFalse();
        });
    assertThat(running.getStatus().getContainerStatuses())
        .singleElement()
        .satisfies(cs -> assertThat(cs.getState().getRunning()).isNotNull());
    for (String container : List.of("init0", "ctr0")) {
      assertThat(
              client
                  .pods()
                  .inNamespace("default")
                  .withName("pod-init")
                  .inContainer(container)
                  .getLog())
          .as(container)
          .contains("declare -x GPU_DEVICE_0=\"gpu-0\"");
    }
    assertThat(driver.prepareCalls)
        .as("the claim shared by both containers is prepared once")
        .containsExactly(List.of(claim.getMetadata().getUid()));
  }

  @Test
  void unresolvableCdiDeviceFailsTheContainer() throws Exception {
    startDriver();
    Pod pod =
        client
            .pods()
            .inNamespace("default")
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("pod1")
                    .endMetadata()
                    .withNewSpec()
                    .withNodeName("node-1")
                    .addNewResourceClaim()
                    .withName("gpu")
                    .withResourceClaimName("c1")
                    .endResourceClaim()
                    .addNewContainer()
                    .withName("ctr0")
                    .withImage("ubuntu:22.04")
                    .withNewResources()
                    .addNewClaim()
                    .withName("gpu")
                    .endClaim()
                    .endResources()
                    .endContainer()
                    .endSpec()
                    .build())
            .create();
    createAllocatedClaim("c1", pod);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> {
          Pod p = client.pods().inNamespace("default").withName("pod1").get();
          var cs = p.getStatus() == null ? null : p.getStatus().getContainerStatuses();
          return cs != null
              && !cs.isEmpty()
              && cs.get(0).getState().getWaiting() != null
              && "CreateContainerError".equals(cs.get(0).getState().getWaiting().getReason());
        });
    Pod p = client.pods().inNamespace("default").withName("pod1").get();
    assertThat(p.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(p.getStatus().getContainerStatuses().get(0).getState().getWaiting().getMessage())
        .contains("unresolvable CDI devices " + DRIVER + "/gpu=");
  }

  /** A fake driver on real sockets in the node's plugin dirs, once the kubelet registered it. */
  void startDriver() throws Exception {
    driver =
        FakeDriver.start(
            root.resolve("plugins_registry"),
            root.resolve("plugins").resolve(DRIVER).resolve("dra.sock"),
            DRIVER,
            List.of("v1.DRAPlugin"));
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> kubelet.plugins().registeredDrivers().contains(DRIVER));
  }

  String phase(String name) {
    Pod p = client.pods().inNamespace("default").withName(name).get();
    return p == null || p.getStatus() == null ? null : p.getStatus().getPhase();
  }

  ResourceClaim createAllocatedClaim(String name, Pod pod) {
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
            .withRequest("req")
            .withDriver(DRIVER)
            .withPool("node-1")
            .withDevice("gpu-0")
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
