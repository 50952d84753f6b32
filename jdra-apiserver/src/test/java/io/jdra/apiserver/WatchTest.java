package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.impl.BaseClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.httpclient.VertxClientFactory;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class WatchTest {
  static ServerFixture f;

  @BeforeAll
  static void start() {
    f =
        new ServerFixture(
            ApiServerOptions.inMemory()
                .withWatchHistory(50)
                .withBookmarkInterval(java.time.Duration.ofMillis(200)));
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  static ConfigMap cm(String name, Map<String, String> labels) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("w")
        .withLabels(labels)
        .endMetadata()
        .addToData("k", name)
        .build();
  }

  static void ensureNamespace() {
    if (f.client.namespaces().withName("w").get() == null) {
      f.client
          .namespaces()
          .resource(
              new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                  .withNewMetadata()
                  .withName("w")
                  .endMetadata()
                  .build())
          .create();
    }
  }

  record Ev(Watcher.Action action, String name, String rv) {}

  static Watcher<ConfigMap> into(BlockingQueue<Ev> q, CompletableFuture<WatcherException> closed) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, ConfigMap o) {
        q.add(new Ev(action, o.getMetadata().getName(), o.getMetadata().getResourceVersion()));
      }

      @Override
      public void onClose(WatcherException cause) {
        closed.complete(cause);
      }
    };
  }

  @Test
  void resumesWithoutGapOrDuplicate() throws Exception {
    ensureNamespace();
    var cms = f.client.configMaps().inNamespace("w");
    String rv0 =
        cms.resource(cm("r0", Map.of("t", "resume"))).create().getMetadata().getResourceVersion();
    cms.resource(cm("r1", Map.of("t", "resume"))).create();
    cms.withName("r0")
        .edit(c -> {
          c.getData().put("k", "changed");
          return c;
        });
    cms.withName("r1").delete();
    BlockingQueue<Ev> q = new LinkedBlockingQueue<>();
    CompletableFuture<WatcherException> closed = new CompletableFuture<>();
    try (var w =
        cms.withLabel("t", "resume")
            .watch(new ListOptionsBuilder().withResourceVersion(rv0).build(), into(q, closed))) {
      List<Ev> got = List.of(take(q, closed), take(q, closed), take(q, closed));
      assertThat(got)
          .extracting(Ev::action, Ev::name)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(Watcher.Action.ADDED, "r1"),
              org.assertj.core.groups.Tuple.tuple(Watcher.Action.MODIFIED, "r0"),
              org.assertj.core.groups.Tuple.tuple(Watcher.Action.DELETED, "r1"));
      cms.resource(cm("r2", Map.of("t", "resume"))).create();
      assertThat(take(q))
          .extracting(Ev::action, Ev::name)
          .containsExactly(Watcher.Action.ADDED, "r2");
      assertThat(q.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }
  }

  @Test
  void selectorTransitionsBecomeAddedAndDeleted() throws Exception {
    ensureNamespace();
    var cms = f.client.configMaps().inNamespace("w");
    cms.resource(cm("s1", Map.of("t", "other"))).create();
    BlockingQueue<Ev> q = new LinkedBlockingQueue<>();
    CompletableFuture<WatcherException> closed = new CompletableFuture<>();
    try (var w = cms.withLabel("t", "sel").watch(into(q, closed))) {
      cms.withName("s1")
          .edit(c -> {
            c.getMetadata().setLabels(Map.of("t", "sel"));
            return c;
          });
      assertThat(take(q).action()).isEqualTo(Watcher.Action.ADDED);
      cms.withName("s1")
          .edit(c -> {
            c.getMetadata().setLabels(Map.of("t", "gone"));
            return c;
          });
      assertThat(take(q).action()).isEqualTo(Watcher.Action.DELETED);
    }
  }

  @Test
  void compactedVersionIsGone() throws Exception {
    ensureNamespace();
    var cms = f.client.configMaps().inNamespace("w");
    String old = cms.resource(cm("g0", Map.of())).create().getMetadata().getResourceVersion();
    for (int i = 0; i < 60; i++) {
      cms.resource(cm("g" + (i + 1), Map.of())).create();
    }
    BlockingQueue<Ev> q = new LinkedBlockingQueue<>();
    CompletableFuture<WatcherException> closed = new CompletableFuture<>();
    cms.watch(new ListOptionsBuilder().withResourceVersion(old).build(), into(q, closed));
    WatcherException e = closed.get(10, TimeUnit.SECONDS);
    assertThat(e).isNotNull();
    assertThat(e.isHttpGone()).isTrue();

    // Over plain HTTP the ERROR event carries the 410 Status as upstream.
    HttpResponse<String> r =
        f.get("/api/v1/namespaces/w/configmaps?watch=true&resourceVersion=" + old, null);
    assertThat(r.body())
        .startsWith("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\"")
        .contains("\"reason\":\"Expired\"")
        .contains("\"code\":410")
        .contains("too old resource version: " + old);
  }

  @Test
  void bookmarksOnlyWhenAllowed() throws Exception {
    HttpResponse<String> r =
        f.get(
            "/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true&timeoutSeconds=1",
            null);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"ConfigMap\"");
    HttpResponse<String> plain =
        f.get("/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1", null);
    assertThat(plain.body()).doesNotContain("BOOKMARK");
  }

  @Test
  void informerWithIndexer() throws Exception {
    ensureNamespace();
    var cms = f.client.configMaps().inNamespace("w");
    cms.resource(cm("i0", Map.of("team", "a"))).create();
    BlockingQueue<String> adds = new LinkedBlockingQueue<>();
    SharedIndexInformer<ConfigMap> inf =
        cms.inform(
            new ResourceEventHandler<>() {
              @Override
              public void onAdd(ConfigMap o) {
                adds.add(o.getMetadata().getName());
              }

              @Override
              public void onUpdate(ConfigMap a, ConfigMap b) {}

              @Override
              public void onDelete(ConfigMap o, boolean unknown) {}
            });
    try {
      inf.addIndexers(
          Map.of("team", c -> List.of(c.getMetadata().getLabels().getOrDefault("team", ""))));
      assertThat(adds.poll(10, TimeUnit.SECONDS)).isNotNull();
      cms.resource(cm("i1", Map.of("team", "a"))).create();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> inf.getIndexer().byIndex("team", "a").size() >= 2);
      assertThat(inf.getIndexer().byIndex("team", "a"))
          .extracting(c -> c.getMetadata().getName())
          .contains("i0", "i1");
    } finally {
      inf.close();
    }
  }

  /**
   * The fixture's client is jdra's transport (found by fabric8's ServiceLoader), which opens
   * WebSockets on its event loop. With fabric8's own Vert.x client, {@link
   * #resumesWithoutGapOrDuplicate} lost its whole replay about once in a hundred runs on a loaded
   * machine: the events sent right after the upgrade reached a socket without handlers.
   */
  @Test
  void watchesGoThroughJdrasTransport() {
    assertThat(VertxClientFactory.built(f.client.adapt(BaseClient.class).getHttpClient())).isTrue();
  }

  /**
   * As {@link #take(BlockingQueue)}, saying whether the watch had closed and why: the two causes of
   * a missing event (no replay, a closed watch) differ.
   */
  static Ev take(BlockingQueue<Ev> q, CompletableFuture<WatcherException> closed)
      throws InterruptedException {
    Ev e = q.poll(10, TimeUnit.SECONDS);
    assertThat(e)
        .as(
            "event within 10s (watch %s)",
            closed.isDone() ? "closed: " + closed.getNow(null) : "still open")
        .isNotNull();
    return e;
  }

  static Ev take(BlockingQueue<Ev> q) throws InterruptedException {
    Ev e = q.poll(10, TimeUnit.SECONDS);
    assertThat(e).as("event within 10s").isNotNull();
    return e;
  }
}
