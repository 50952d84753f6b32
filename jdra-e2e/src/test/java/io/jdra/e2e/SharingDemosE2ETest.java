package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dra-example-driver demos about sharing and selecting GPUs, with the chart's default values
 * (one node, 8 GPUs), each checked for what its README says a real cluster shows (which containers
 * see which GPU, with what sharing settings), then deleted and checked for release: claims gone,
 * CDI specs of the claims removed, the GPUs free again.
 */
class SharingDemosE2ETest {
  @TempDir static Path dir;
  static JdraUpProcess up;
  static Path demos;

  @BeforeAll
  static void startCluster() throws Exception {
    Assumptions.assumeTrue(Paths.kubectl() != null, "kubectl not installed; skipping");
    Path ex = Paths.examples();
    Assumptions.assumeTrue(ex != null, "upstream examples absent; skipping");
    demos = ex.resolve("dra-example-driver/demo/examples");
    up = JdraUpProcess.start(dir.resolve("data"));
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (up != null) {
      up.close();
    }
  }

  @Test
  void sharedClaimAcrossContainers() throws Exception {
    String ns = "basic-shared-claim-across-containers";
    Path manifest = apply(ns);
    awaitRunning(ns, "pod0");
    List<String> ctr0 = gpus(env(ns, "pod0", "ctr0"));
    assertThat(ctr0).hasSize(1);
    assertThat(ctr0.get(0)).matches("gpu-[0-7]");
    assertThat(gpus(env(ns, "pod0", "ctr1"))).as("both containers share one GPU").isEqualTo(ctr0);
    assertThat(claims(ns)).hasSize(1);
    deleteAndAwaitRelease(ns, manifest);
  }

  @Test
  void sharedClaimAcrossPods() throws Exception {
    String ns = "basic-shared-claim-across-pods";
    Path manifest = apply(ns);
    awaitRunning(ns, "pod0", "pod1");
    ResourceClaim claim = claims(ns).get(0);
    assertThat(claim.getMetadata().getName()).isEqualTo("single-gpu");
    assertThat(claim.getStatus().getReservedFor())
        .extracting(r -> r.getName())
        .as("one claim reserved for both pods")
        .containsExactlyInAnyOrder("pod0", "pod1");
    List<String> gpu = gpus(env(ns, "pod0", "ctr0"));
    assertThat(gpu).hasSize(1);
    assertThat(gpus(env(ns, "pod1", "ctr0"))).as("both pods share one GPU").isEqualTo(gpu);
    deleteAndAwaitRelease(ns, manifest);
  }

  @Test
  void multipleRequestsGetDistinctGpus() throws Exception {
    String ns = "basic-multiple-requests";
    Path manifest = apply(ns);
    awaitRunning(ns, "pod0");
    List<String> gpus = gpus(env(ns, "pod0", "ctr0"));
    assertThat(gpus).as("two distinct GPUs in one container").hasSize(2).doesNotHaveDuplicates();
    List<DeviceRequestAllocationResult> results = results(claims(ns).get(0));
    assertThat(results).extracting(r -> r.getRequest()).containsExactlyInAnyOrder("gpu-1", "gpu-2");
    assertThat(results).extracting(r -> r.getDevice()).containsExactlyInAnyOrderElementsOf(gpus);
    deleteAndAwaitRelease(ns, manifest);
  }

  @Test
  void opaqueConfigSetsSharingPerRequest() throws Exception {
    String ns = "basic-resourceclaim-opaque-config";
    Path manifest = apply(ns);
    awaitRunning(ns, "pod0");
    Map<String, String> ts0 = env(ns, "pod0", "ts-ctr0");
    Map<String, String> ts1 = env(ns, "pod0", "ts-ctr1");
    Map<String, String> sp0 = env(ns, "pod0", "sp-ctr0");
    Map<String, String> sp1 = env(ns, "pod0", "sp-ctr1");
    assertThat(gpus(ts0)).hasSize(1).isEqualTo(gpus(ts1));
    assertThat(gpus(sp0)).hasSize(1).isEqualTo(gpus(sp1));
    assertThat(gpus(sp0)).isNotEqualTo(gpus(ts0));
    for (Map<String, String> ts : List.of(ts0, ts1)) {
      assertThat(setting(ts, "SHARING_STRATEGY")).isEqualTo("TimeSlicing");
      assertThat(setting(ts, "TIMESLICE_INTERVAL")).isEqualTo("Long");
    }
    for (Map<String, String> sp : List.of(sp0, sp1)) {
      assertThat(setting(sp, "SHARING_STRATEGY")).isEqualTo("SpacePartitioning");
      assertThat(setting(sp, "PARTITION_COUNT")).isEqualTo("10");
    }
    deleteAndAwaitRelease(ns, manifest);
  }

  @Test
  void celSelectorPicksAMatchingGpu() throws Exception {
    String ns = "cel-selector";
    Path manifest = apply(ns);
    awaitRunning(ns, "pod0");
    List<String> gpus = gpus(env(ns, "pod0", "ctr0"));
    assertThat(gpus).hasSize(1);
    var device =
        up.client().dynamicResourceAllocation().v1().resourcesSlices().list().getItems().stream()
            .flatMap(s -> s.getSpec().getDevices().stream())
            .filter(d -> d.getName().equals(gpus.get(0)))
            .findFirst()
            .orElseThrow();
    assertThat(device.getAttributes().get("model").getString()).isEqualTo("LATEST-GPU-MODEL");
    assertThat(device.getCapacity().get("memory").getValue().getNumericalAmount())
        .isGreaterThanOrEqualTo(new java.math.BigDecimal(4L << 30));
    deleteAndAwaitRelease(ns, manifest);
  }

  private static Path apply(String demo) throws Exception {
    Path manifest = demos.resolve(demo + "/" + demo + ".yaml");
    up.kubectl().run("apply", "-f", manifest.toString()).ok();
    return manifest;
  }

  /**
   * The container's environment as its {@code export} prints it in the logs (awaited: as on a real
   * cluster, a container's first output can come a moment after the pod turns Running).
   */
  private static Map<String, String> env(String ns, String pod, String container) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> parseEnv(logs(ns, pod, container)), e -> e.containsKey("PATH"));
  }

  /**
   * The GPUs a container sees: dra-example-driver sets {@code GPU_DEVICE_<n>="gpu-<n>"} for each
   * (named by the GPU, so gpu-3 is {@code GPU_DEVICE_3}), and per-GPU settings as {@code
   * GPU_DEVICE_<n>_SHARING_STRATEGY} and so on.
   */
  private static List<String> gpus(Map<String, String> env) {
    return env.entrySet().stream()
        .filter(e -> e.getKey().matches("GPU_DEVICE_[0-9]+"))
        .map(Map.Entry::getValue)
        .sorted()
        .toList();
  }

  /** The value of a per-GPU setting such as {@code SHARING_STRATEGY} for the container's GPU. */
  private static String setting(Map<String, String> env, String name) {
    String gpu = gpus(env).get(0);
    return env.get("GPU_DEVICE_" + gpu.substring("gpu-".length()) + "_" + name);
  }

  private static String logs(String ns, String pod, String container) throws Exception {
    return up.kubectl().run("logs", "-n", ns, pod, "-c", container).ok().out();
  }

  private static Map<String, String> parseEnv(String logs) {
    Map<String, String> env = new LinkedHashMap<>();
    for (String line : logs.lines().toList()) {
      String l = line.replaceFirst("^declare -x ", "");
      int eq = l.indexOf('=');
      if (eq > 0) {
        env.put(l.substring(0, eq), l.substring(eq + 1).replaceAll("^\"|\"$", ""));
      }
    }
    return env;
  }

  private static List<ResourceClaim> claims(String ns) throws IOException {
    return up.client()
        .dynamicResourceAllocation()
        .v1()
        .resourceClaims()
        .inNamespace(ns)
        .list()
        .getItems();
  }

  private static List<DeviceRequestAllocationResult> results(ResourceClaim c) {
    return c.getStatus().getAllocation().getDevices().getResults();
  }

  /**
   * Deletes the demo and waits until nothing of it holds a GPU: its claims are gone and no CDI spec
   * of a claim is left in the node's CDI root (only the driver's common spec stays).
   */
  private static void deleteAndAwaitRelease(String ns, Path manifest) throws Exception {
    List<String> uids = claims(ns).stream().map(c -> c.getMetadata().getUid()).toList();
    up.kubectl().run("delete", "-f", manifest.toString(), "--wait=true", "--ignore-not-found").ok();
    KubernetesClient c = up.client();
    Path cdi = dir.resolve("data/nodes/node-1/cdi");
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> {
          assertThat(claims(ns)).as("claims of " + ns).isEmpty();
          assertThat(c.namespaces().withName(ns).get()).as("namespace " + ns).isNull();
          try (Stream<Path> specs = Files.list(cdi)) {
            List<String> names = specs.map(p -> p.getFileName().toString()).toList();
            for (String uid : uids) {
              assertThat(names).as("CDI specs").noneMatch(n -> n.contains(uid));
            }
          }
        });
  }

  private static void awaitRunning(String ns, String... pods) throws IOException {
    KubernetesClient c = up.client();
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> {
          for (String name : pods) {
            Pod p = c.pods().inNamespace(ns).withName(name).get();
            assertThat(p).as(ns + "/" + name).isNotNull();
            assertThat(p.getStatus().getPhase())
                .as(ns + "/" + name + " phase; jdra up log:\n" + up.logTail())
                .isEqualTo("Running");
          }
        });
  }
}
