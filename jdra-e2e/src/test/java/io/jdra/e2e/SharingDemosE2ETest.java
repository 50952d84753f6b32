package io.jdra.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dra-example-driver demos about sharing and selecting GPUs (demo/examples and the v0.2.1
 * gpu-test1..5), with the chart's default values (one node, 8 GPUs), each checked for what its
 * README says a real cluster shows (which containers see which GPU, with what sharing settings),
 * then deleted and checked for release: claims gone, CDI specs of the claims removed, the GPUs free
 * again.
 */
class SharingDemosE2ETest {
  @TempDir static Path dir;
  static JdraUpProcess up;
  static Path demos;

  @BeforeAll
  static void startCluster() throws Exception {
    demos = Demos.examplesOrSkip();
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
    checkSharedAcrossContainers(demo("basic-shared-claim-across-containers"));
  }

  @Test
  void sharedClaimAcrossPods() throws Exception {
    checkSharedAcrossPods(demo("basic-shared-claim-across-pods"));
  }

  @Test
  void multipleRequestsGetDistinctGpus() throws Exception {
    checkTwoGpusInOneContainer(demo("basic-multiple-requests"), "gpu-1", "gpu-2");
  }

  @Test
  void opaqueConfigSetsSharingPerRequest() throws Exception {
    checkOpaqueConfig(demo("basic-resourceclaim-opaque-config"));
  }

  /** The v0.2.1 demos: the same cases under older names. */
  @Test
  void v021GpuTest1TwoPodsGetDistinctGpus() throws Exception {
    Path manifest = v021("gpu-test1");
    String ns = "gpu-test1";
    apply(manifest);
    Demos.awaitRunning(up, ns, "pod0", "pod1");
    List<String> pod0 = gpus(env(ns, "pod0", "ctr0"));
    List<String> pod1 = gpus(env(ns, "pod1", "ctr0"));
    assertThat(pod0).hasSize(1);
    assertThat(pod1).hasSize(1).isNotEqualTo(pod0);
    deleteAndAwaitRelease(ns, manifest);
  }

  @Test
  void v021GpuTest2() throws Exception {
    checkTwoGpusInOneContainer(new Demo("gpu-test2", v021("gpu-test2")), "gpu-1", "gpu-2");
  }

  @Test
  void v021GpuTest3() throws Exception {
    checkSharedAcrossContainers(new Demo("gpu-test3", v021("gpu-test3")));
  }

  @Test
  void v021GpuTest4() throws Exception {
    checkSharedAcrossPods(new Demo("gpu-test4", v021("gpu-test4")));
  }

  @Test
  void v021GpuTest5() throws Exception {
    checkOpaqueConfig(new Demo("gpu-test5", v021("gpu-test5")));
  }

  @Test
  void adminAccessSeesEveryGpu() throws Exception {
    Demo d = demo("admin-access");
    apply(d.manifest());
    Demos.awaitRunning(up, d.ns(), "pod0");
    Map<String, String> env = env(d.ns(), "pod0", "ctr0");
    assertThat(env).containsEntry("DRA_ADMIN_ACCESS", "true");
    assertThat(gpus(env))
        .as("allocationMode All with admin access: every GPU of the node")
        .hasSize(8);
    List<DeviceRequestAllocationResult> results = results(claims(d.ns()).get(0));
    assertThat(results).hasSize(8).allSatisfy(r -> assertThat(r.getAdminAccess()).isTrue());
    deleteAndAwaitRelease(d.ns(), d.manifest());
  }

  @Test
  void initContainerSharesTheGpuOfItsPod() throws Exception {
    checkInitContainerSharesGpu(demo("initcontainer-shared-gpu"));
  }

  @Test
  void v021GpuTest6() throws Exception {
    checkInitContainerSharesGpu(new Demo("gpu-test6", v021("gpu-test6")));
  }

  /** init0 runs first and completes, then ctr0 runs; both see the one GPU of the pod's claim. */
  private static void checkInitContainerSharesGpu(Demo d) throws Exception {
    apply(d.manifest());
    Demos.awaitRunning(up, d.ns(), "pod0");
    Pod pod = up.client().pods().inNamespace(d.ns()).withName("pod0").get();
    assertThat(pod.getStatus().getInitContainerStatuses())
        .singleElement()
        .satisfies(s -> {
          assertThat(s.getName()).isEqualTo("init0");
          assertThat(s.getState().getTerminated().getReason()).isEqualTo("Completed");
        });
    List<String> init = gpus(env(d.ns(), "pod0", "init0"));
    assertThat(init).hasSize(1);
    assertThat(gpus(env(d.ns(), "pod0", "ctr0")))
        .as("same GPU as the init container")
        .isEqualTo(init);
    deleteAndAwaitRelease(d.ns(), d.manifest());
  }

  @Test
  void prioritizedAlternativesFallBackAndPrefer() throws Exception {
    Demo d = demo("prioritized-alternatives");
    apply(d.manifest());
    Demos.awaitRunning(up, d.ns(), "pod0", "pod1");
    List<String> pod0 = gpus(env(d.ns(), "pod0", "ctr0"));
    List<String> pod1 = gpus(env(d.ns(), "pod1", "ctr0"));
    assertThat(pod0).hasSize(1);
    assertThat(pod1).hasSize(1).isNotEqualTo(pod0);
    Map<String, String> chosen = new java.util.TreeMap<>();
    for (ResourceClaim c : claims(d.ns())) {
      String pod = c.getMetadata().getOwnerReferences().get(0).getName();
      chosen.put(pod, results(c).get(0).getRequest());
    }
    assertThat(chosen)
        .as("pod0 falls back to the only satisfiable subrequest, pod1 gets its preferred one")
        .containsEntry("pod0", "gpu/older-gpu")
        .containsEntry("pod1", "gpu/latest-gpu");
    deleteAndAwaitRelease(d.ns(), d.manifest());
  }

  record Demo(String ns, Path manifest) {}

  private static Demo demo(String name) {
    return new Demo(name, demos.resolve(name + "/" + name + ".yaml"));
  }

  private static Path v021(String name) {
    return demos.resolve("../../v0.2.1/demo/" + name + ".yaml").normalize();
  }

  /** One pod, two containers ctr0 and ctr1 sharing the GPU of one generated claim. */
  private static void checkSharedAcrossContainers(Demo d) throws Exception {
    apply(d.manifest());
    Demos.awaitRunning(up, d.ns(), "pod0");
    List<String> ctr0 = gpus(env(d.ns(), "pod0", "ctr0"));
    assertThat(ctr0).hasSize(1);
    assertThat(ctr0.get(0)).matches("gpu-[0-7]");
    assertThat(gpus(env(d.ns(), "pod0", "ctr1")))
        .as("both containers share one GPU")
        .isEqualTo(ctr0);
    assertThat(claims(d.ns())).hasSize(1);
    deleteAndAwaitRelease(d.ns(), d.manifest());
  }

  /** Pods pod0 and pod1 sharing the GPU of the named claim single-gpu. */
  private static void checkSharedAcrossPods(Demo d) throws Exception {
    apply(d.manifest());
    Demos.awaitRunning(up, d.ns(), "pod0", "pod1");
    ResourceClaim claim = claims(d.ns()).get(0);
    assertThat(claim.getMetadata().getName()).isEqualTo("single-gpu");
    assertThat(claim.getStatus().getReservedFor())
        .extracting(r -> r.getName())
        .as("one claim reserved for both pods")
        .containsExactlyInAnyOrder("pod0", "pod1");
    List<String> gpu = gpus(env(d.ns(), "pod0", "ctr0"));
    assertThat(gpu).hasSize(1);
    assertThat(gpus(env(d.ns(), "pod1", "ctr0"))).as("both pods share one GPU").isEqualTo(gpu);
    deleteAndAwaitRelease(d.ns(), d.manifest());
  }

  /** One container with two distinct GPUs from one claim's requests {@code r1} and {@code r2}. */
  private static void checkTwoGpusInOneContainer(Demo d, String r1, String r2) throws Exception {
    apply(d.manifest());
    Demos.awaitRunning(up, d.ns(), "pod0");
    List<String> gpus = gpus(env(d.ns(), "pod0", "ctr0"));
    assertThat(gpus).as("two distinct GPUs in one container").hasSize(2).doesNotHaveDuplicates();
    List<DeviceRequestAllocationResult> results = results(claims(d.ns()).get(0));
    assertThat(results).extracting(r -> r.getRequest()).containsExactlyInAnyOrder(r1, r2);
    assertThat(results).extracting(r -> r.getDevice()).containsExactlyInAnyOrderElementsOf(gpus);
    deleteAndAwaitRelease(d.ns(), d.manifest());
  }

  /** ts-ctr0/1 share a TimeSlicing GPU, sp-ctr0/1 a SpacePartitioning one, as configured. */
  private static void checkOpaqueConfig(Demo d) throws Exception {
    String ns = d.ns();
    apply(d.manifest());
    Demos.awaitRunning(up, ns, "pod0");
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
    deleteAndAwaitRelease(ns, d.manifest());
  }

  @Test
  void celSelectorPicksAMatchingGpu() throws Exception {
    String ns = "cel-selector";
    Path manifest = demo(ns).manifest();
    apply(manifest);
    Demos.awaitRunning(up, ns, "pod0");
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

  private static void apply(Path manifest) throws Exception {
    up.kubectl().run("apply", "-f", manifest.toString()).ok();
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

  private static List<ResourceClaim> claims(String ns) throws Exception {
    return Demos.claims(up, ns);
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
}
