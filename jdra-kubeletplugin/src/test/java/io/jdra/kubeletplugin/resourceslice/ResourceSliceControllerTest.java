package io.jdra.kubeletplugin.resourceslice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.api.features.FeatureGates;
import io.jdra.apiserver.ApiServerOptions;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.testing.apiserver.TestApiServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The slice publisher against the embedded API server: what ends up stored, and when. */
class ResourceSliceControllerTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static TestApiServer server;
  private static KubernetesClient client;
  private static int nodes;

  private final List<Throwable> errors = new CopyOnWriteArrayList<>();
  private final Ctx ctx = Ctx.background("test");
  private final List<ResourceSliceController> started = new ArrayList<>();

  @BeforeAll
  static void startServer() {
    server = TestApiServer.start();
    client = server.client();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @AfterEach
  void stopControllers() {
    started.forEach(ResourceSliceController::stop);
  }

  @Test
  void publishesNodeLocalSlicesOwnedByTheNode() {
    Node node = node();
    String nodeName = node.getMetadata().getName();
    start(
        "a.example.com",
        nodeName,
        DriverResources.ofNodePool(nodeName, Pool.of(List.of(Slice.of(devices("gpu", 3))))));

    List<ResourceSlice> slices = awaitSlices("a.example.com", nodeName, 1);
    ResourceSlice s = slices.get(0);
    assertThat(s.getMetadata().getName()).startsWith("00000-a.example.com-" + nodeName + "-");
    assertThat(s.getSpec().getNodeName()).isEqualTo(nodeName);
    assertThat(s.getSpec().getPool().getName()).isEqualTo(nodeName);
    assertThat(s.getSpec().getPool().getGeneration()).isEqualTo(1);
    assertThat(s.getSpec().getPool().getResourceSliceCount()).isEqualTo(1);
    assertThat(s.getSpec().getDevices())
        .extracting(Device::getName)
        .containsExactly("gpu-0", "gpu-1", "gpu-2");
    var owner = s.getMetadata().getOwnerReferences().get(0);
    assertThat(owner.getKind()).isEqualTo("Node");
    assertThat(owner.getName()).isEqualTo(nodeName);
    assertThat(owner.getUid()).isEqualTo(node.getMetadata().getUid());
    assertThat(owner.getController()).isTrue();
    assertThat(errors).isEmpty();
  }

  @Test
  void oneChangedSliceKeepsTheGenerationASplitBumpsIt() throws InterruptedException {
    String nodeName = node().getMetadata().getName();
    ResourceSliceController c =
        start(
            "b.example.com",
            nodeName,
            DriverResources.ofNodePool(nodeName, Pool.of(List.of(Slice.of(devices("gpu", 2))))));
    awaitSlices("b.example.com", nodeName, 1);

    c.update(DriverResources.ofNodePool(nodeName, Pool.of(List.of(Slice.of(devices("gpu", 3))))));
    await()
        .atMost(WAIT)
        .until(() -> slices("b.example.com", nodeName).get(0).getSpec().getDevices().size() == 3);
    assertThat(slices("b.example.com", nodeName).get(0).getSpec().getPool().getGeneration())
        .isEqualTo(1);
    assertThat(c.stats()).isEqualTo(new ResourceSliceController.Stats(1, 1, 0));

    c.update(
        DriverResources.ofNodePool(
            nodeName, Pool.of(List.of(Slice.of(devices("gpu", 2)), Slice.of(devices("nic", 2))))));
    List<ResourceSlice> split = awaitSlices("b.example.com", nodeName, 2);
    assertThat(split)
        .allSatisfy(s -> {
          assertThat(s.getSpec().getPool().getGeneration()).isEqualTo(2);
          assertThat(s.getSpec().getPool().getResourceSliceCount()).isEqualTo(2);
        });
    assertThat(split.get(0).getMetadata().getName()).startsWith("00000-");
    assertThat(split.get(1).getMetadata().getName()).startsWith("00001-");
    assertThat(split.get(1).getSpec().getDevices())
        .extracting(Device::getName)
        .containsExactly("nic-0", "nic-1");
    assertThat(c.awaitPublished(WAIT)).as("published after the split").isTrue();

    c.update(new DriverResources(java.util.Map.of()));
    await().atMost(WAIT).until(() -> slices("b.example.com", nodeName).isEmpty());
    assertThat(errors).isEmpty();
  }

  @Test
  void republishesASliceDeletedByHand() {
    String nodeName = node().getMetadata().getName();
    start(
        "c.example.com",
        nodeName,
        DriverResources.ofNodePool(nodeName, Pool.of(List.of(Slice.of(devices("gpu", 1))))));
    ResourceSlice first = awaitSlices("c.example.com", nodeName, 1).get(0);

    client.resource(first).delete();

    await()
        .atMost(WAIT)
        .until(() -> {
          List<ResourceSlice> now = slices("c.example.com", nodeName);
          return now.size() == 1
              && !now.get(0).getMetadata().getUid().equals(first.getMetadata().getUid());
        });
    // Upstream derives the generation from the slices that exist; with none left it starts over.
    assertThat(slices("c.example.com", nodeName).get(0).getSpec().getPool().getGeneration())
        .isEqualTo(1);
  }

  @Test
  void reportsFieldsTheServerDropped() {
    try (TestApiServer noTaints =
        TestApiServer.start(
            ApiServerOptions.inMemory()
                .withFeatureGates(FeatureGates.parse("DRADeviceTaints=false")))) {
      KubernetesClient c2 = noTaints.client();
      c2.nodes()
          .resource(new NodeBuilder().withNewMetadata().withName("n").endMetadata().build())
          .create();
      Device tainted = devices("gpu", 1).get(0);
      DeviceTaint taint = new DeviceTaint();
      taint.setKey("example.com/broken");
      taint.setEffect("NoSchedule");
      tainted.setTaints(List.of(taint));
      Options o =
          Options.builder("d.example.com", c2)
              .owner(new Owner("v1", "Node", "n", null))
              .resources(
                  DriverResources.ofNodePool("n", Pool.of(List.of(Slice.of(List.of(tainted))))))
              .errorHandler((x, err, msg) -> errors.add(err))
              .syncDelay(Duration.ofMillis(50))
              .build();
      ResourceSliceController c = ResourceSliceController.start(ctx, o);
      started.add(c);
      await().atMost(WAIT).until(() -> !errors.isEmpty());
      assertThat(errors.get(0))
          .isInstanceOf(DroppedFieldsException.class)
          .hasMessage(
              "pool \"n\", slice #0: some fields were dropped by the apiserver, probably because these features are disabled: DRADeviceTaints");
      await().atMost(WAIT).until(c::published);
      // The stored form became the desired one: no update loop.
      long updates = c.stats().numUpdates();
      c.update(DriverResources.ofNodePool("n", Pool.of(List.of(Slice.of(List.of(tainted))))));
      await().atMost(WAIT).until(c::published);
      assertThat(c.stats().numCreates()).isEqualTo(1);
      assertThat(c.stats().numUpdates()).isLessThanOrEqualTo(updates + 1);
    }
  }

  @Test
  void aPublishRightAfterACreateUpdatesTheSliceTheInformerHasNotSeen() {
    String nodeName = node().getMetadata().getName();
    ResourceSliceController c =
        startWithFakeClock("d.example.com", nodeName, new DriverResources(java.util.Map.of()));
    // The informer has listed (nothing) and now stands still: it never sees the controller's
    // writes, as an informer that lags behind them.
    c.informer().stop();

    c.update(DriverResources.ofNodePool(nodeName, Pool.of(List.of(Slice.of(devices("gpu", 2))))));
    await().atMost(WAIT).until(c::published);
    c.update(DriverResources.ofNodePool(nodeName, Pool.of(List.of(Slice.of(devices("gpu", 3))))));
    await().atMost(WAIT).until(c::published);

    List<ResourceSlice> slices = slices("d.example.com", nodeName);
    assertThat(slices).as("no second slice created").hasSize(1);
    assertThat(slices.get(0).getSpec().getDevices()).hasSize(3);
    assertThat(c.stats()).isEqualTo(new ResourceSliceController.Stats(1, 1, 0));
    assertThat(errors).isEmpty();
  }

  @Test
  void updatesAfterItsOwnUpdateUseTheWrittenResourceVersionNotTheInformers() {
    String nodeName = node().getMetadata().getName();
    ResourceSliceController c =
        startWithFakeClock(
            "e.example.com",
            nodeName,
            DriverResources.ofNodePool(nodeName, Pool.of(List.of(Slice.of(devices("gpu", 1))))));
    await().atMost(WAIT).until(() -> c.informer().getStore().list().size() == 1);
    c.informer().stop(); // holds the slice as created, resourceVersion and all

    for (int n = 2; n <= 4; n++) {
      c.update(DriverResources.ofNodePool(nodeName, Pool.of(List.of(Slice.of(devices("gpu", n))))));
      await().atMost(WAIT).until(c::published);
    }

    assertThat(c.informer().getStore().list()).as("the informer is stale").hasSize(1);
    assertThat(c.informer().getStore().list().get(0).getSpec().getDevices()).hasSize(1);
    List<ResourceSlice> slices = slices("e.example.com", nodeName);
    assertThat(slices).hasSize(1);
    assertThat(slices.get(0).getSpec().getDevices()).hasSize(4);
    assertThat(c.stats())
        .as("no conflict, no retry")
        .isEqualTo(new ResourceSliceController.Stats(1, 3, 0));
    assertThat(errors).isEmpty();
  }

  /**
   * With a clock that stands still, written slices never leave the mutation cache and delayed syncs
   * (informer events, retries after errors) never run: each sync is one the test asked for.
   */
  private ResourceSliceController startWithFakeClock(
      String driver, String nodeName, DriverResources resources) {
    Options o =
        Options.builder(driver, client)
            .owner(new Owner("v1", "Node", nodeName, null))
            .resources(resources)
            .errorHandler((c, err, msg) -> errors.add(err))
            .build();
    ResourceSliceController c = ResourceSliceController.start(Ctx.forTest(new FakeClock()), o);
    started.add(c);
    return c;
  }

  @Test
  void indexPrefixesAreHexAtLeastFiveDigits() {
    assertThat(ResourceSliceController.indexLength(1)).isEqualTo(5);
    assertThat(ResourceSliceController.indexLength(0x100001)).isEqualTo(6);
    assertThat(ResourceSliceController.encodeIndex(26, 5)).isEqualTo("0001a");
    assertThat(ResourceSliceController.decodeIndex("0001a-d-n-xyz", 5)).isEqualTo(26);
    assertThat(ResourceSliceController.decodeIndex("001a-d-n-xyz", 5)).isEqualTo(-1);
    assertThat(ResourceSliceController.decodeIndex("0001g-d-n-xyz", 5)).isEqualTo(-1);
  }

  private ResourceSliceController start(String driver, String nodeName, DriverResources resources) {
    Options o =
        Options.builder(driver, client)
            .owner(new Owner("v1", "Node", nodeName, null))
            .resources(resources)
            .syncDelay(Duration.ofMillis(50))
            .mutationCacheTtl(Duration.ofMillis(500))
            .errorHandler((c, err, msg) -> errors.add(err))
            .build();
    ResourceSliceController c = ResourceSliceController.start(ctx, o);
    started.add(c);
    return c;
  }

  private static synchronized Node node() {
    String name = "node-" + (++nodes);
    return client
        .nodes()
        .resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }

  static List<Device> devices(String prefix, int n) {
    return IntStream.range(0, n)
        .mapToObj(i -> {
          Device d = new Device();
          d.setName(prefix + "-" + i);
          return d;
        })
        .toList();
  }

  private static List<ResourceSlice> slices(String driver, String nodeName) {
    return client.resources(ResourceSlice.class).list().getItems().stream()
        .filter(s ->
            driver.equals(s.getSpec().getDriver()) && nodeName.equals(s.getSpec().getNodeName()))
        .sorted(Comparator.comparing(s -> s.getMetadata().getName()))
        .toList();
  }

  private static List<ResourceSlice> awaitSlices(String driver, String nodeName, int count) {
    await()
        .atMost(WAIT)
        .until(() ->
            slices(driver, nodeName).size() == count
                && slices(driver, nodeName).stream()
                    .allMatch(s -> s.getSpec().getPool().getResourceSliceCount() == count));
    return slices(driver, nodeName);
  }
}
