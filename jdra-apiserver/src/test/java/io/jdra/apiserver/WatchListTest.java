package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.jdra.apiserver.meta.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Watch starts of kube-apiserver 1.36 with WatchList enabled: sendInitialEvents streams the current
 * state, then a BOOKMARK annotated {@code k8s.io/initial-events-end}, then changes; legacy watches
 * from "" or "0" are defaulted to it.
 */
class WatchListTest {
  static final String END = "k8s.io/initial-events-end";
  static ServerFixture f;
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static String listRv;

  @BeforeAll
  static void start() {
    f = new ServerFixture();
    for (String ns : List.of("wl", "wlive", "wfuture")) {
      f.client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
    }
    for (String n : List.of("b", "a")) {
      f.client.configMaps().inNamespace("wl").resource(cm(n)).create();
    }
    listRv = f.client.configMaps().inNamespace("wl").list().getMetadata().getResourceVersion();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  static ConfigMap cm(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build();
  }

  /** An open watch stream, one JSON event per line. */
  static Iterator<String> open(String query) throws Exception {
    return open("wl", query);
  }

  static Iterator<String> open(String ns, String query) throws Exception {
    HttpRequest req =
        HttpRequest.newBuilder(
                URI.create(
                    f.server.url() + "/api/v1/namespaces/" + ns + "/configmaps?watch=1&" + query))
            .build();
    HttpResponse<Stream<String>> r = HTTP.send(req, HttpResponse.BodyHandlers.ofLines());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body().iterator();
  }

  /** "TYPE name" for objects, "BOOKMARK end@rv" for the end marker, "BOOKMARK" otherwise. */
  static String describe(String line) {
    JsonNode e = Json.MAPPER.readTree(line);
    String type = e.get("type").asString();
    JsonNode o = e.get("object");
    if (type.equals("BOOKMARK")) {
      return o.at("/metadata/annotations").has(END)
          ? "BOOKMARK end@" + o.at("/metadata/resourceVersion").asString()
          : "BOOKMARK";
    }
    if (type.equals("ERROR")) {
      return "ERROR " + o.get("code").asInt() + " " + o.get("message").asString();
    }
    return type + " " + o.at("/metadata/name").asString();
  }

  /** Every event until the server ends the watch (timeoutSeconds), periodic bookmarks dropped. */
  static List<String> all(String query) throws Exception {
    List<String> out = new ArrayList<>();
    for (Iterator<String> it = open(query + "&timeoutSeconds=1"); it.hasNext(); ) {
      String d = describe(it.next());
      if (!d.equals("BOOKMARK")) {
        out.add(d);
      }
    }
    return out;
  }

  static Stream<Arguments> streamShapes() {
    List<String> initial = List.of("ADDED a", "ADDED b");
    List<String> withEnd = List.of("ADDED a", "ADDED b", "BOOKMARK end@RV");
    return Stream.of(
        Arguments.of(
            "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true",
            withEnd),
        Arguments.of(
            "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=RV"
                + "&allowWatchBookmarks=true",
            withEnd),
        Arguments.of(
            "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=0"
                + "&allowWatchBookmarks=true",
            withEnd),
        Arguments.of("sendInitialEvents=true&resourceVersionMatch=NotOlderThan", initial),
        Arguments.of("allowWatchBookmarks=true", withEnd),
        Arguments.of("resourceVersion=0&allowWatchBookmarks=true", withEnd),
        Arguments.of("resourceVersion=", initial),
        Arguments.of(
            "sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true",
            List.of()),
        Arguments.of(
            "sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=RV"
                + "&allowWatchBookmarks=true",
            List.of()),
        Arguments.of("resourceVersion=RV&allowWatchBookmarks=true", List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void streamShapes(String query, List<String> want) throws Exception {
    List<String> got = all(query.replace("RV", listRv));
    assertThat(got)
        .containsExactlyElementsOf(want.stream().map(s -> s.replace("RV", listRv)).toList());
  }

  @Test
  void withoutBookmarksNoBookmarkAtAll() throws Exception {
    List<String> raw = new ArrayList<>();
    open("sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1")
        .forEachRemaining(l -> raw.add(describe(l)));
    assertThat(raw).containsExactly("ADDED a", "ADDED b");
  }

  @Test
  void endMarkerIsAnAnnotatedBookmarkOfTheKind() throws Exception {
    Iterator<String> it =
        open(
            "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true"
                + "&timeoutSeconds=1");
    it.next();
    it.next();
    JsonNode end = Json.MAPPER.readTree(it.next());
    assertThat(end.get("type").asString()).isEqualTo("BOOKMARK");
    JsonNode o = end.get("object");
    assertThat(o.get("kind").asString()).isEqualTo("ConfigMap");
    assertThat(o.get("apiVersion").asString()).isEqualTo("v1");
    assertThat(o.at("/metadata/annotations/" + END.replace("/", "~1")).asString())
        .isEqualTo("true");
    it.forEachRemaining(l -> {});
  }

  @Test
  void changesFollowTheEndMarker() throws Exception {
    // Its own namespace, so the other cases' watches from a resourceVersion see no change.
    Iterator<String> it =
        open(
            "wlive",
            "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true"
                + "&timeoutSeconds=5");
    List<String> seen = new ArrayList<>();
    while (seen.isEmpty() || !seen.get(seen.size() - 1).startsWith("BOOKMARK end@")) {
      seen.add(describe(it.next()));
    }
    f.client.configMaps().inNamespace("wlive").resource(cm("late")).create();
    String next;
    do {
      next = describe(it.next());
    } while (next.equals("BOOKMARK"));
    assertThat(next).isEqualTo("ADDED late");
    it.forEachRemaining(l -> {});
  }

  @Test
  void aFutureVersionEndsWithUpstreamsTimeoutError() throws Exception {
    long future = f.server.currentResourceVersion() + 1_000_000;
    List<String> got = new ArrayList<>();
    open("sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true"
            + "&timeoutSeconds=30&resourceVersion="
            + future)
        .forEachRemaining(l -> got.add(describe(l)));
    assertThat(got).hasSize(1);
    assertThat(got.get(0))
        .startsWith("ERROR 504 Timeout: Too large resource version: " + future + ", current: ");
  }

  @Test
  void fabric8WatchListGetsInitialEventsThenTheEndBookmark() throws Exception {
    BlockingQueue<String> q = new LinkedBlockingQueue<>();
    Watcher<ConfigMap> w =
        new Watcher<>() {
          @Override
          public void eventReceived(Action action, ConfigMap o) {
            var ann = o.getMetadata().getAnnotations();
            boolean end = ann != null && "true".equals(ann.get(END));
            q.add(action + (end ? " end" : " " + o.getMetadata().getName()));
          }

          @Override
          public void onClose(WatcherException cause) {}
        };
    try (Watch watch =
        f.client
            .configMaps()
            .inNamespace("wl")
            .watch(
                new ListOptionsBuilder()
                    .withSendInitialEvents(true)
                    .withResourceVersionMatch("NotOlderThan")
                    .withAllowWatchBookmarks(true)
                    .build(),
                w)) {
      List<String> got = new ArrayList<>();
      while (got.size() < 3) {
        String e = q.poll(10, TimeUnit.SECONDS);
        assertThat(e).as("event within 10s after " + got).isNotNull();
        if (!e.equals("BOOKMARK null")) {
          got.add(e);
        }
      }
      assertThat(got).containsExactly("ADDED a", "ADDED b", "BOOKMARK end");
    }
  }

  @Test
  void aWatchFromAFutureVersionSendsOnlyLaterChanges() throws Exception {
    long from = f.server.currentResourceVersion() + 3;
    Iterator<String> it = open("wfuture", "resourceVersion=" + from + "&timeoutSeconds=4");
    var cms = f.client.configMaps().inNamespace("wfuture");
    List<Long> created = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      created.add(
          Long.parseLong(cms.resource(cm("f" + i)).create().getMetadata().getResourceVersion()));
    }
    List<String> seen = new ArrayList<>();
    while (!seen.contains("f5")) {
      JsonNode e = Json.MAPPER.readTree(it.next());
      JsonNode meta = e.at("/object/metadata");
      assertThat(Long.parseLong(meta.get("resourceVersion").asString())).isGreaterThan(from);
      seen.add(meta.get("name").asString());
    }
    assertThat(created.get(0)).isLessThanOrEqualTo(from);
    assertThat(seen).doesNotContain("f0").endsWith("f5");
    it.forEachRemaining(l -> {});
  }
}
