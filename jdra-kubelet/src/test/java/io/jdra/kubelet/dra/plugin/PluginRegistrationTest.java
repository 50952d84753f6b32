package io.jdra.kubelet.dra.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.kubelet.dra.DeviceHealth;
import io.jdra.kubelet.dra.DraMetrics;
import io.jdra.kubelet.dra.HealthInfoCache;
import io.jdra.kubelet.fake.FakeDriver;
import io.jdra.kubelet.pluginmanager.PluginWatcher;
import io.jdra.proto.drahealth.v1alpha1.DeviceIdentifier;
import io.jdra.proto.drahealth.v1alpha1.HealthStatus;
import io.jdra.proto.drahealth.v1alpha1.NodeWatchResourcesResponse;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.testing.apiserver.TestApiServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Registration, negotiation, driver restarts, rolling updates, ResourceSlice wiping and health,
 * with fake drivers on real Unix sockets. Registration is driven by calling the watcher's rescan
 * (its inotify thread may get there first; both are fine); wiping runs on the fake clock.
 */
class PluginRegistrationTest {
  static TestApiServer api;
  static KubernetesClient client;

  @TempDir Path root;
  Path registry;
  final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  Ctx ctx;
  DraPluginManager plugins;
  PluginWatcher watcher;
  HealthInfoCache health;
  final List<String> healthChanges = new CopyOnWriteArrayList<>();
  final List<FakeDriver> drivers = new ArrayList<>();

  @BeforeAll
  static void startApi() {
    api = TestApiServer.start();
    client = api.client();
  }

  @AfterAll
  static void stopApi() {
    api.close();
  }

  @BeforeEach
  void setUp() throws Exception {
    registry = root.resolve("plugins_registry");
    ctx = Ctx.background("test").withClock(clock).withCancel();
    health = new HealthInfoCache(clock);
    plugins =
        new DraPluginManager(
            ctx,
            new ResourceSliceWiper(client, "node-1", Runnable::run),
            DraPluginManager.DEFAULT_WIPING_DELAY,
            DraMetrics.discard(),
            new HealthStream(
                health,
                (d, changed) ->
                    changed.forEach(
                        h -> healthChanges.add(d + "/" + h.deviceName() + "=" + h.health()))));
    watcher = new PluginWatcher(registry, Map.of(DraPluginManager.PLUGIN_TYPE, plugins));
    watcher.start(ctx);
    client.resources(ResourceSlice.class).delete();
  }

  @AfterEach
  void tearDown() throws Exception {
    for (FakeDriver d : drivers) {
      d.close();
    }
    ctx.cancel();
    watcher.close();
    plugins.stop();
  }

  FakeDriver driver(String name, List<String> services) throws Exception {
    return driver(name, "dra.sock", services);
  }

  FakeDriver driver(String name, String socket, List<String> services) throws Exception {
    FakeDriver d =
        FakeDriver.startAt(
            registry.resolve(name + "-" + socket.replace(".sock", "") + "-reg.sock"),
            root.resolve("plugins").resolve(name).resolve(socket),
            name,
            services);
    drivers.add(d);
    watcher.rescan();
    return d;
  }

  static Stream<Arguments> negotiation() {
    return Stream.of(
        Arguments.of("v1 only", List.of("v1.DRAPlugin"), "v1.DRAPlugin"),
        Arguments.of("v1beta1 only", List.of("v1beta1.DRAPlugin"), "v1beta1.DRAPlugin"),
        Arguments.of("both: v1 wins", List.of("v1beta1.DRAPlugin", "v1.DRAPlugin"), "v1.DRAPlugin"),
        Arguments.of("neither", List.of("v1alpha4.Node"), null),
        Arguments.of("empty", List.of(), null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void negotiation(String name, List<String> services, String chosen) throws Exception {
    FakeDriver d = driver("gpu.example.com", services);
    var status = d.registrationStatus.poll(10, TimeUnit.SECONDS);
    assertThat(status).isNotNull();
    if (chosen == null) {
      assertThat(status.getPluginRegistered()).isFalse();
      assertThat(status.getError()).contains("plugin validation failed");
      assertThatThrownBy(() -> plugins.getPlugin("gpu.example.com"))
          .hasMessage("DRA driver gpu.example.com is not registered");
      return;
    }
    assertThat(status.getPluginRegistered()).isTrue();
    DraPluginClient p = (DraPluginClient) plugins.getPlugin("gpu.example.com");
    assertThat(p.service()).isEqualTo(chosen);
    var result = p.nodePrepareResources(ctx, List.of(new Claim("default", "uid-1", "c1")));
    assertThat(result.get("uid-1").devices())
        .singleElement()
        .satisfies(
            dev -> assertThat(dev.cdiDeviceIds()).containsExactly("gpu.example.com/gpu=uid-1"));
    assertThat(p.nodeUnprepareResources(ctx, List.of(new Claim("default", "uid-1", "c1"))))
        .containsEntry("uid-1", "");
    assertThat(d.prepareCalls).containsExactly(List.of("uid-1"));
    assertThat(d.unprepareCalls).containsExactly(List.of("uid-1"));
  }

  @Test
  void driverRestart() throws Exception {
    FakeDriver d = driver("gpu.example.com", List.of("v1.DRAPlugin"));
    assertThat(d.registrationStatus.poll(10, TimeUnit.SECONDS).getPluginRegistered()).isTrue();
    d.close();
    drivers.remove(d);
    watcher.rescan();
    assertThatThrownBy(() -> plugins.getPlugin("gpu.example.com"))
        .isInstanceOf(DriverNotRegisteredException.class);

    FakeDriver again = driver("gpu.example.com", List.of("v1.DRAPlugin"));
    assertThat(again.registrationStatus.poll(10, TimeUnit.SECONDS).getPluginRegistered()).isTrue();
    plugins
        .getPlugin("gpu.example.com")
        .nodePrepareResources(ctx, List.of(new Claim("ns", "u", "c")));
    assertThat(again.prepareCalls).hasSize(1);
  }

  @Test
  void rollingUpdateNewestEndpointWins() throws Exception {
    FakeDriver old = driver("gpu.example.com", "dra-old.sock", List.of("v1.DRAPlugin"));
    FakeDriver neu = driver("gpu.example.com", "dra-new.sock", List.of("v1.DRAPlugin"));
    assertThat(plugins.endpoints("gpu.example.com"))
        .containsExactly(old.endpoint.toString(), neu.endpoint.toString());
    plugins
        .getPlugin("gpu.example.com")
        .nodePrepareResources(ctx, List.of(new Claim("ns", "u", "c")));
    assertThat(neu.prepareCalls).hasSize(1);
    assertThat(old.prepareCalls).isEmpty();

    // The new instance goes away first: calls fall back to the old one, nothing is wiped.
    createSlice("s1", "node-1", "gpu.example.com");
    neu.close();
    drivers.remove(neu);
    watcher.rescan();
    plugins
        .getPlugin("gpu.example.com")
        .nodePrepareResources(ctx, List.of(new Claim("ns", "u", "c")));
    assertThat(old.prepareCalls).hasSize(1);
    clock.step(Duration.ofMinutes(1));
    assertThat(sliceNames()).containsExactly("s1");
  }

  @Test
  void slicesAreWipedAtStartAndThirtySecondsAfterTheDriverLeft() throws Exception {
    createSlice("n1-gpu", "node-1", "gpu.example.com");
    createSlice("n1-nic", "node-1", "nic.example.com");
    createSlice("n2-gpu", "node-2", "gpu.example.com");
    plugins.wipeAllAtStart();
    assertThat(sliceNames()).containsExactly("n2-gpu");

    FakeDriver gpu = driver("gpu.example.com", List.of("v1.DRAPlugin"));
    createSlice("n1-gpu", "node-1", "gpu.example.com");
    createSlice("n1-nic", "node-1", "nic.example.com");
    gpu.close();
    drivers.remove(gpu);
    watcher.rescan();
    clock.step(Duration.ofSeconds(29));
    assertThat(sliceNames()).containsExactly("n1-gpu", "n1-nic", "n2-gpu");
    clock.step(Duration.ofSeconds(1));
    assertThat(sliceNames()).containsExactly("n1-nic", "n2-gpu");
  }

  @Test
  void driverComingBackInTimeKeepsItsSlices() throws Exception {
    FakeDriver gpu = driver("gpu.example.com", List.of("v1.DRAPlugin"));
    createSlice("n1-gpu", "node-1", "gpu.example.com");
    gpu.close();
    drivers.remove(gpu);
    watcher.rescan();
    clock.step(Duration.ofSeconds(20));
    driver("gpu.example.com", List.of("v1.DRAPlugin"));
    clock.step(Duration.ofMinutes(5));
    assertThat(sliceNames()).containsExactly("n1-gpu");
  }

  @Test
  void healthReportsReachTheCache() throws Exception {
    FakeDriver gpu =
        driver("gpu.example.com", List.of("v1.DRAPlugin", "v1alpha1.DRAResourceHealth"));
    await().atMost(Duration.ofSeconds(10)).until(() -> gpu.healthStreamCount() == 1);
    gpu.reportHealth(
        NodeWatchResourcesResponse.newBuilder()
            .addDevices(
                io.jdra.proto.drahealth.v1alpha1.DeviceHealth.newBuilder()
                    .setDevice(
                        DeviceIdentifier.newBuilder().setPoolName("pool").setDeviceName("gpu-0"))
                    .setHealth(HealthStatus.UNHEALTHY)
                    .setLastUpdatedTime(clock.now().getEpochSecond())
                    .setHealthCheckTimeoutSeconds(10)
                    .setMessage("ECC errors"))
            .build());
    await().atMost(Duration.ofSeconds(10)).until(() -> !healthChanges.isEmpty());
    assertThat(healthChanges).containsExactly("gpu.example.com/gpu-0=Unhealthy");
    DeviceHealth h = health.get("gpu.example.com", "pool", "gpu-0");
    assertThat(h.message()).isEqualTo("ECC errors");
    clock.step(Duration.ofSeconds(11));
    assertThat(health.get("gpu.example.com", "pool", "gpu-0").health()).isEqualTo("Unknown");
  }

  void createSlice(String name, String node, String driver) {
    client
        .resources(ResourceSlice.class)
        .resource(
            new ResourceSliceBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withDriver(driver)
                .withNodeName(node)
                .withNewPool()
                .withName(node)
                .withGeneration(1L)
                .withResourceSliceCount(1L)
                .endPool()
                .endSpec()
                .build())
        .create();
  }

  List<String> sliceNames() {
    return client.resources(ResourceSlice.class).list().getItems().stream()
        .map(s -> s.getMetadata().getName())
        .sorted()
        .toList();
  }
}
