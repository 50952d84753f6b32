package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NVIDIA DRA driver's quickstart specs on a default {@code jdra up}, after the user applied
 * jdra's {@code examples/nvidia/deviceclass-gpu.nvidia.com.yaml} (the NVIDIA chart's {@code
 * gpu.nvidia.com} class, selecting the example driver's GPUs). Specs that ask for any GPU run;
 * gpu-test4 asks for MIG devices by NVIDIA attributes and stays Pending, as on a cluster without
 * them.
 */
class NvidiaQuickstartE2ETest {
  @TempDir static Path dir;
  static JdraUpProcess up;
  static Path specs;

  @BeforeAll
  static void startCluster() throws Exception {
    Demos.examplesOrSkip();
    specs = Paths.examples().resolve("dra-driver-nvidia-gpu/demo/specs");
    up = JdraUpProcess.start(dir.resolve("data"));
    Path classes = Paths.repoRoot().resolve("examples/nvidia/deviceclass-gpu.nvidia.com.yaml");
    up.kubectl().run("apply", "-f", classes.toString()).ok();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (up != null) {
      up.close();
    }
  }

  /** gpu-test1: two pods, each with its own GPU; nvidia-smi has nothing to print here. */
  @Test
  void gpuTest1EachPodGetsItsOwnGpu() throws Exception {
    String ns = "gpu-test1";
    Path manifest = specs.resolve("quickstart/v1/gpu-test1.yaml");
    up.kubectl().run("apply", "-f", manifest.toString()).ok();
    Demos.awaitRunning(up, ns, "pod1", "pod2");
    List<ResourceClaim> claims = Demos.claims(up, ns);
    assertThat(claims).hasSize(2);
    Set<String> devices = new HashSet<>();
    for (ResourceClaim c : claims) {
      assertThat(c.getMetadata().getName()).matches("pod[12]-gpu-[a-z0-9]{5}");
      var r = c.getStatus().getAllocation().getDevices().getResults().get(0);
      assertThat(r.getDriver()).isEqualTo("gpu.example.com");
      devices.add(r.getDevice());
    }
    assertThat(devices).as("distinct GPUs").hasSize(2).allMatch(d -> d.matches("gpu-[0-7]"));
    assertThat(up.kubectl().run("logs", "-n", ns, "pod1").ok().out())
        .as("nvidia-smi -L of a container that runs no image")
        .isEmpty();
    Demos.deleteAndAwaitGone(up, ns, manifest);
  }

  /** extended-resources/gpu-full: nvidia.com/gpu: 1 becomes a claim the scheduler made. */
  @Test
  void gpuFullThroughTheExtendedResourceName() throws Exception {
    String ns = "extended-resource-gpu-full";
    Path manifest = specs.resolve("extended-resources/gpu-full.yaml");
    up.kubectl().run("apply", "-f", manifest.toString()).ok();
    Demos.awaitRunning(up, ns, "gpu-full-pod");
    Pod pod = up.client().pods().inNamespace(ns).withName("gpu-full-pod").get();
    var ext = pod.getStatus().getExtendedResourceClaimStatus();
    assertThat(ext.getResourceClaimName()).startsWith("gpu-full-pod-extended-resources-");
    assertThat(ext.getRequestMappings().get(0).getContainerName()).isEqualTo("cuda-container");
    assertThat(ext.getRequestMappings().get(0).getRequestName()).isEqualTo("container-0-request-0");
    assertThat(ext.getRequestMappings().get(0).getResourceName()).isEqualTo("nvidia.com/gpu");
    ResourceClaim claim = Demos.claims(up, ns).get(0);
    assertThat(claim.getMetadata().getAnnotations())
        .containsEntry("resource.kubernetes.io/extended-resource-claim", "true");
    assertThat(claim.getSpec().getDevices().getRequests().get(0).getExactly().getDeviceClassName())
        .isEqualTo("gpu.nvidia.com");
    Demos.deleteAndAwaitGone(up, ns, manifest);
  }

  /**
   * gpu-test4: MIG devices of DeviceClass mig.nvidia.com, selected by NVIDIA's profile attribute;
   * no such class or device exists, so the four pods stay Pending with the scheduler's reason.
   */
  @Test
  void gpuTest4MigDevicesStayPending() throws Exception {
    String ns = "gpu-test4";
    Path manifest = specs.resolve("quickstart/v1/gpu-test4.yaml");
    up.kubectl().run("apply", "-f", manifest.toString()).ok();
    List<Pod> pods =
        await()
            .atMost(Demos.TIMEOUT)
            .pollInterval(Demos.POLL)
            .until(
                () -> up.client().pods().inNamespace(ns).list().getItems(),
                ps ->
                    ps.size() == 4 && ps.stream().allMatch(NvidiaQuickstartE2ETest::unschedulable));
    for (Pod p : pods) {
      assertThat(p.getStatus().getPhase()).isEqualTo("Pending");
      assertThat(scheduled(p).getMessage()).contains("device class mig.nvidia.com does not exist");
    }
    Demos.deleteAndAwaitGone(up, ns, manifest);
  }

  private static boolean unschedulable(Pod p) {
    PodCondition c = scheduled(p);
    return c != null && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason());
  }

  private static PodCondition scheduled(Pod p) {
    if (p.getStatus() == null || p.getStatus().getConditions() == null) {
      return null;
    }
    return p.getStatus().getConditions().stream()
        .filter(c -> "PodScheduled".equals(c.getType()))
        .findFirst()
        .orElse(null);
  }
}
