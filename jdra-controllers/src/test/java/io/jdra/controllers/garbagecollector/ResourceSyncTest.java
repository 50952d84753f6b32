package io.jdra.controllers.garbagecollector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.controllers.controllerutil.ApiResources;
import io.jdra.controllers.controllerutil.ApiResources.Gvr;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.InformerFactory;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.workqueue.WorkQueueMetrics;
import io.jdra.testing.apiserver.WithApiServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The collector's resource sync (upstream's {@code GarbageCollector.Sync}) against the embedded API
 * server, discovery played by the test: monitors follow what discovery reports, a group that failed
 * discovery keeps its monitors, an empty discovery counts a sync error, and a resource missed at
 * start is collected in once a sync finds it.
 */
@WithApiServer
class ResourceSyncTest {
  static final String CONFIG_MAPS = "/v1/configmaps";

  final PrometheusRegistry registry = new PrometheusRegistry();
  Ctx ctx;
  InformerFactory informers;

  /** What the server serves, less the core group's configmaps. */
  static ApiResources withoutConfigMaps(ApiResources all) {
    List<Gvr> less =
        all.resources().stream().filter(r -> !Monitors.key(r).equals(CONFIG_MAPS)).toList();
    return new ApiResources(less, all.failedGroups());
  }

  /** What the server serves with the core group's discovery failed. */
  static ApiResources coreGroupFailed(ApiResources all) {
    List<Gvr> grouped = all.resources().stream().filter(r -> !r.group().isEmpty()).toList();
    return new ApiResources(grouped, Map.of("/api", "the server answered 503"));
  }

  GarbageCollector collector(
      KubernetesClient client, AtomicReference<ApiResources> discovery, Duration period) {
    informers = new InformerFactory(client);
    GarbageCollector gc =
        GarbageCollector.create(
            ctx,
            client,
            discovery::get,
            informers,
            WorkQueueMetrics.create(registry),
            registry,
            EventRecorder.fake(),
            period);
    informers.start(ctx);
    assertThat(informers.waitForCacheSync(ctx, Duration.ofSeconds(30))).isTrue();
    return gc;
  }

  double syncErrors() {
    return registry.scrape().stream()
        .filter(s ->
            s.getMetadata().getName().equals("garbagecollector_controller_resources_sync_error"))
        .map(s -> ((CounterSnapshot) s).getDataPoints().get(0).getValue())
        .findFirst()
        .orElseThrow();
  }

  @AfterEach
  void stop() {
    ctx.cancel();
  }

  @Test
  void monitorsFollowDiscoveryAndAnEmptyOneCountsAnError(KubernetesClient client) throws Exception {
    ctx = Ctx.forTest(new FakeClock(Instant.parse("2026-01-01T00:00:00Z"))).withCancel();
    ApiResources all = ApiResources.discover(client);
    AtomicReference<ApiResources> discovery = new AtomicReference<>(withoutConfigMaps(all));
    GarbageCollector gc = collector(client, discovery, ResourceSync.PERIOD);
    ResourceSync sync = gc.resourceSync();
    assertThat(gc.monitors().resources()).doesNotContain(CONFIG_MAPS).contains("/v1/pods");

    assertThat(sync.syncOnce(ctx)).as("unchanged discovery").isFalse();

    discovery.set(all);
    assertThat(sync.syncOnce(ctx)).as("configmaps served now").isTrue();
    assertThat(gc.monitors().resources()).contains(CONFIG_MAPS);
    assertThat(gc.monitors().synced()).isTrue();

    discovery.set(coreGroupFailed(all));
    assertThat(sync.syncOnce(ctx)).as("a failed group keeps its synced monitors").isFalse();
    assertThat(gc.monitors().resources()).contains(CONFIG_MAPS, "/v1/pods");

    discovery.set(new ApiResources(List.of(), Map.of("/api", "down", "/apis", "down")));
    assertThat(sync.syncOnce(ctx)).isFalse();
    assertThat(syncErrors()).isEqualTo(1);
    assertThat(gc.monitors().resources()).contains(CONFIG_MAPS);

    discovery.set(withoutConfigMaps(all));
    assertThat(sync.syncOnce(ctx)).as("configmaps no longer served").isTrue();
    assertThat(gc.monitors().resources()).doesNotContain(CONFIG_MAPS).contains("/v1/pods");
    assertThat(syncErrors()).isEqualTo(1);
  }

  /**
   * The collector runs (real clock, 100 ms sync period); configmaps were missing from the first
   * discovery, so a ConfigMap whose owner never existed stays until a sync finds configmaps.
   */
  @Test
  void aResourceMissedAtStartIsCollectedAfterASync(KubernetesClient client) throws Exception {
    ctx = Ctx.forTest(Clock.system()).withCancel();
    String ns = "gc-resync-" + UUID.randomUUID().toString().substring(0, 8);
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("dangling")
                .addNewOwnerReference()
                .withApiVersion("v1")
                .withKind("ConfigMap")
                .withName("never-existed")
                .withUid(UUID.randomUUID().toString())
                .endOwnerReference()
                .endMetadata()
                .build())
        .create();
    ApiResources all = ApiResources.discover(client);
    AtomicReference<ApiResources> discovery = new AtomicReference<>(withoutConfigMaps(all));
    GarbageCollector gc = collector(client, discovery, Duration.ofMillis(100));
    Thread runner =
        Thread.ofPlatform()
            .start(() -> {
              try {
                gc.run(ctx, 1);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    try {
      assertThat(client.configMaps().inNamespace(ns).withName("dangling").get()).isNotNull();
      discovery.set(all);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> client.configMaps().inNamespace(ns).withName("dangling").get() == null);
      assertThat(gc.monitors().resources()).contains(CONFIG_MAPS);
    } finally {
      ctx.cancel();
      runner.join();
    }
  }
}
