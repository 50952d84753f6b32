package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.jdra.apiserver.meta.Json;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * List semantics of kube-apiserver 1.36: resourceVersion and resourceVersionMatch, snapshot
 * pagination with continue tokens, 410 when history no longer reaches back, and upstream's
 * validation errors.
 */
class ListSemanticsTest {
  static final int HISTORY = 40;
  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture(ApiServerOptions.inMemory().withWatchHistory(HISTORY));
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  static NonNamespaceOperation<ConfigMap, ConfigMapList, Resource<ConfigMap>> cms(String ns) {
    if (f.client.namespaces().withName(ns).get() == null) {
      f.client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
    }
    return f.client.configMaps().inNamespace(ns);
  }

  static ConfigMap cm(String name, String value) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .addToData("v", value)
        .build();
  }

  static void set(
      NonNamespaceOperation<ConfigMap, ConfigMapList, Resource<ConfigMap>> c, String n, String v) {
    c.withName(n)
        .edit(x -> {
          x.getData().put("v", v);
          return x;
        });
  }

  /** name=value of each item, in list order. */
  static List<String> contents(JsonNode list) {
    List<String> out = new ArrayList<>();
    for (JsonNode i : list.get("items")) {
      out.add(i.at("/metadata/name").asString() + "=" + i.at("/data/v").asString());
    }
    return out;
  }

  static JsonNode getJson(String path) {
    HttpResponse<String> r = f.get(path, null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return Json.MAPPER.readTree(r.body());
  }

  static String q(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------ resourceVersion

  /** A namespace whose state at {@code rv} was a=1, b=1 and now is a=2, c=1 (b deleted). */
  record History(String ns, String rv, String current) {}

  private static final java.util.concurrent.atomic.AtomicInteger HISTORIES =
      new java.util.concurrent.atomic.AtomicInteger();

  /** A fresh history each time: other tests' churn may push an older one out of history. */
  static History history() {
    String ns = "hist" + HISTORIES.incrementAndGet();
    var c = cms(ns);
    c.resource(cm("a", "1")).create();
    c.resource(cm("b", "1")).create();
    String rv = c.list().getMetadata().getResourceVersion();
    set(c, "a", "2");
    c.withName("b").delete();
    c.resource(cm("c", "1")).create();
    return new History(ns, rv, c.list().getMetadata().getResourceVersion());
  }

  static Stream<Arguments> readsByResourceVersion() {
    List<String> old = List.of("a=1", "b=1");
    List<String> now = List.of("a=2", "c=1");
    return Stream.of(
        Arguments.of("most recent", "", now, true),
        Arguments.of("any (0)", "resourceVersion=0", now, true),
        Arguments.of("0 ignores limit", "resourceVersion=0&limit=1", now, true),
        Arguments.of("exact", "resourceVersion=RV&resourceVersionMatch=Exact", old, false),
        Arguments.of(
            "exact with limit",
            "resourceVersion=RV&resourceVersionMatch=Exact&limit=5",
            old,
            false),
        Arguments.of("legacy exact (rv with limit)", "resourceVersion=RV&limit=5", old, false),
        Arguments.of(
            "not older than", "resourceVersion=RV&resourceVersionMatch=NotOlderThan", now, true),
        Arguments.of("legacy not older than (rv without limit)", "resourceVersion=RV", now, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void readsByResourceVersion(String name, String query, List<String> want, boolean current) {
    History h = history();
    JsonNode list =
        getJson("/api/v1/namespaces/" + h.ns() + "/configmaps?" + query.replace("RV", h.rv()));
    assertThat(contents(list)).containsExactlyElementsOf(want);
    long listed = Long.parseLong(list.at("/metadata/resourceVersion").asString());
    if (current) {
      assertThat(listed).isGreaterThanOrEqualTo(Long.parseLong(h.current()));
    } else {
      assertThat(listed).isEqualTo(Long.parseLong(h.rv()));
    }
  }

  @Test
  void exactListThroughFabric8SeesTheOldState() {
    History h = history();
    ConfigMapList old =
        cms(h.ns())
            .list(
                new ListOptionsBuilder()
                    .withResourceVersion(h.rv())
                    .withResourceVersionMatch("Exact")
                    .build());
    assertThat(old.getItems())
        .extracting(c -> c.getMetadata().getName() + "=" + c.getData().get("v"))
        .containsExactly("a=1", "b=1");
    assertThat(old.getMetadata().getResourceVersion()).isEqualTo(h.rv());
  }

  // ------------------------------------------------------------ pagination

  @Test
  void pagesShowTheFirstPagesSnapshotDespiteConcurrentWrites() {
    var c = cms("snap");
    for (int i = 0; i < 9; i++) {
      c.resource(cm(String.format("p%d", i), "old")).create();
    }
    ConfigMapList first = c.list(new ListOptionsBuilder().withLimit(3L).build());
    String rv = first.getMetadata().getResourceVersion();
    assertThat(first.getMetadata().getRemainingItemCount()).isEqualTo(6L);
    // Writes after the first page: in the next pages' range and before it.
    set(c, "p4", "new");
    c.withName("p5").delete();
    c.resource(cm("p55", "new")).create();
    set(c, "p0", "new");
    List<String> seen = new ArrayList<>();
    first.getItems().forEach(x -> seen.add(x.getMetadata().getName() + "=" + x.getData().get("v")));
    String cont = first.getMetadata().getContinue();
    while (cont != null && !cont.isEmpty()) {
      ConfigMapList page =
          c.list(new ListOptionsBuilder().withLimit(3L).withContinue(cont).build());
      assertThat(page.getMetadata().getResourceVersion()).isEqualTo(rv);
      page.getItems()
          .forEach(x -> seen.add(x.getMetadata().getName() + "=" + x.getData().get("v")));
      cont = page.getMetadata().getContinue();
    }
    assertThat(seen)
        .containsExactly(
            "p0=old", "p1=old", "p2=old", "p3=old", "p4=old", "p5=old", "p6=old", "p7=old",
            "p8=old");
  }

  @Test
  void tokensAreUpstreamsEncodingAndSelectorsHideTheCount() {
    var c = cms("tok");
    for (int i = 0; i < 4; i++) {
      c.resource(
              new ConfigMapBuilder(cm("t" + i, "x"))
                  .editMetadata()
                  .addToLabels("odd", Boolean.toString(i % 2 == 1))
                  .endMetadata()
                  .build())
          .create();
    }
    JsonNode page = getJson("/api/v1/namespaces/tok/configmaps?limit=2");
    String token = page.at("/metadata/continue").asString();
    JsonNode decoded = Json.MAPPER.readTree(Base64.getUrlDecoder().decode(token));
    assertThat(decoded.get("v").asString()).isEqualTo("meta.k8s.io/v1");
    assertThat(decoded.get("rv").asLong())
        .isEqualTo(Long.parseLong(page.at("/metadata/resourceVersion").asString()));
    assertThat(decoded.get("start").asString()).isEqualTo("t1\u0000");
    assertThat(page.at("/metadata/remainingItemCount").asLong()).isEqualTo(2);

    JsonNode filtered =
        getJson("/api/v1/namespaces/tok/configmaps?limit=1&labelSelector=odd%3Dtrue");
    assertThat(contents(filtered)).containsExactly("t1=x");
    assertThat(filtered.at("/metadata/continue").asString()).isNotEmpty();
    assertThat(filtered.at("/metadata").has("remainingItemCount")).isFalse();
  }

  // ------------------------------------------------------------ 410 Gone

  /** Writes enough to another namespace's configmaps to push older events out of history. */
  static void churn() {
    var c = cms("churn");
    c.resource(cm("x", "0")).createOr(x -> x.update());
    for (int i = 0; i < HISTORY + 5; i++) {
      set(c, "x", Integer.toString(i));
    }
  }

  @Test
  void exactListOlderThanHistoryIsGone() {
    var c = cms("gone");
    c.resource(cm("g", "1")).create();
    String rv = c.list().getMetadata().getResourceVersion();
    churn();
    HttpResponse<String> r =
        f.get(
            "/api/v1/namespaces/gone/configmaps?resourceVersionMatch=Exact&resourceVersion=" + rv,
            null);
    assertThat(r.statusCode()).isEqualTo(410);
    JsonNode s = Json.MAPPER.readTree(r.body());
    assertThat(s.get("reason").asString()).isEqualTo("Expired");
    assertThat(s.get("message").asString())
        .isEqualTo("The resourceVersion for the provided list is too old.");
    KubernetesClientException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            KubernetesClientException.class,
            () ->
                c.list(
                    new ListOptionsBuilder()
                        .withResourceVersion(rv)
                        .withResourceVersionMatch("Exact")
                        .build()));
    assertThat(e.getCode()).isEqualTo(410);
  }

  @Test
  void compactedContinueIsGoneWithAnInconsistentContinueToken() {
    var c = cms("gonecont");
    for (int i = 0; i < 4; i++) {
      c.resource(cm("k" + i, "old")).create();
    }
    JsonNode first = getJson("/api/v1/namespaces/gonecont/configmaps?limit=2");
    set(c, "k3", "new");
    churn();
    String cont = first.at("/metadata/continue").asString();
    HttpResponse<String> r =
        f.get("/api/v1/namespaces/gonecont/configmaps?limit=2&continue=" + q(cont), null);
    assertThat(r.statusCode()).isEqualTo(410);
    JsonNode s = Json.MAPPER.readTree(r.body());
    assertThat(s.get("reason").asString()).isEqualTo("Expired");
    assertThat(s.get("message").asString())
        .isEqualTo(
            "The provided continue parameter is too old to display a consistent list result. You"
                + " can start a new list without the continue parameter, or use the continue token"
                + " in this response to retrieve the remainder of the results. Continuing with the"
                + " provided token results in an inconsistent list - objects that were created,"
                + " modified, or deleted between the time the first chunk was returned and now may"
                + " show up in the list.");
    String inconsistent = s.at("/metadata/continue").asString();
    JsonNode token = Json.MAPPER.readTree(Base64.getUrlDecoder().decode(inconsistent));
    assertThat(token.get("rv").asLong()).isEqualTo(-1);
    assertThat(token.get("start").asString()).isEqualTo("k1\u0000");

    // The offered token goes on with the current state.
    JsonNode rest =
        getJson("/api/v1/namespaces/gonecont/configmaps?limit=2&continue=" + q(inconsistent));
    assertThat(contents(rest)).containsExactly("k2=old", "k3=new");
    assertThat(Long.parseLong(rest.at("/metadata/resourceVersion").asString()))
        .isGreaterThan(Long.parseLong(first.at("/metadata/resourceVersion").asString()));
  }

  // ------------------------------------------------------------ too large

  @Test
  void notOlderThanAFutureVersionTimesOutAsUpstream() {
    long future = f.server.currentResourceVersion() + 1_000_000;
    long t0 = System.nanoTime();
    HttpResponse<String> r =
        f.get(
            "/api/v1/configmaps?resourceVersionMatch=NotOlderThan&resourceVersion=" + future, null);
    assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(2_900);
    assertThat(r.statusCode()).isEqualTo(504);
    JsonNode s = Json.MAPPER.readTree(r.body());
    assertThat(s.get("reason").asString()).isEqualTo("Timeout");
    assertThat(s.get("message").asString())
        .startsWith("Timeout: Too large resource version: " + future + ", current: ");
    assertThat(s.at("/details/causes/0/reason").asString()).isEqualTo("ResourceVersionTooLarge");
    assertThat(s.at("/details/causes/0/message").asString())
        .isEqualTo("Too large resource version");
    assertThat(s.at("/details/retryAfterSeconds").asInt()).isEqualTo(1);
  }

  @Test
  void aVersionReachedWhileWaitingIsServed() throws Exception {
    long next = f.server.currentResourceVersion() + 1;
    var pending =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> f.get("/api/v1/namespaces/default/configmaps?resourceVersion=" + next, null));
    // The read waits for the version instead of answering at once.
    org.awaitility.Awaitility.await()
        .during(java.time.Duration.ofMillis(300))
        .atMost(java.time.Duration.ofSeconds(2))
        .until(() -> !pending.isDone());
    cms("default").resource(cm("wake-up", "1")).create();
    HttpResponse<String> r = pending.get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode list = Json.MAPPER.readTree(r.body());
    assertThat(Long.parseLong(list.at("/metadata/resourceVersion").asString()))
        .isGreaterThanOrEqualTo(next);
  }

  // ------------------------------------------------------------ validation

  static String token(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  static Stream<Arguments> badOptions() {
    String invalid = "ListOptions.meta.k8s.io \"\" is invalid: ";
    String good = token("{\"v\":\"meta.k8s.io/v1\",\"rv\":5,\"start\":\"a\\u0000\"}");
    Map<String, Object[]> cases = new LinkedHashMap<>();
    cases.put(
        "resourceVersionMatch=Exact",
        new Object[] {
          422,
          invalid
              + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless"
              + " resourceVersion is provided"
        });
    cases.put(
        "resourceVersion=0&resourceVersionMatch=Exact",
        new Object[] {
          422,
          invalid
              + "resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for"
              + " resourceVersion \"0\""
        });
    cases.put(
        "resourceVersion=5&resourceVersionMatch=exact",
        new Object[] {
          422,
          invalid
              + "resourceVersionMatch: Unsupported value: \"exact\": supported values: \"Exact\","
              + " \"NotOlderThan\", \"\""
        });
    cases.put(
        "resourceVersionMatch=NotOlderThan&continue=" + good,
        new Object[] {
          422,
          invalid
              + "[resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless"
              + " resourceVersion is provided, resourceVersionMatch: Forbidden:"
              + " resourceVersionMatch is forbidden when continue is provided]"
        });
    cases.put(
        "sendInitialEvents=true",
        new Object[] {
          422, invalid + "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list"
        });
    cases.put(
        "resourceVersion=abc",
        new Object[] {
          400,
          "invalid resource version: resourceVersion: Invalid value: \"abc\": strconv.ParseUint:"
              + " parsing \"abc\": invalid syntax"
        });
    cases.put(
        "resourceVersion=-1&limit=3",
        new Object[] {
          400,
          "invalid resource version: resourceVersion: Invalid value: \"-1\": strconv.ParseUint:"
              + " parsing \"-1\": invalid syntax"
        });
    cases.put(
        "continue=" + good + "&resourceVersion=5",
        new Object[] {400, "specifying resource version is not allowed when using continue"});
    cases.put(
        "continue=a.b",
        new Object[] {
          400,
          "invalid continue token: continue key is not valid: illegal base64 data at input byte 1"
        });
    cases.put(
        "continue=" + token("{\"v\":\"meta.k8s.io/v1\",\"rv\":0,\"start\":\"a\"}"),
        new Object[] {
          400,
          "invalid continue token: continue key is not valid: incorrect encoded start"
              + " resourceVersion (version meta.k8s.io/v1)"
        });
    cases.put(
        "continue=" + token("{\"v\":\"meta.k8s.io/v1\",\"rv\":3}"),
        new Object[] {
          400,
          "invalid continue token: continue key is not valid: encoded start key empty (version"
              + " meta.k8s.io/v1)"
        });
    cases.put(
        "continue=" + token("{\"v\":\"meta.k8s.io/v2\",\"rv\":3,\"start\":\"a\"}"),
        new Object[] {
          400,
          "invalid continue token: continue key is not valid: server does not recognize this"
              + " encoded version meta.k8s.io/v2"
        });
    cases.put(
        "continue=" + token("{\"v\":\"meta.k8s.io/v1\",\"rv\":3,\"start\":\"../kube-system/a\"}"),
        new Object[] {400, "invalid continue token: continue key is not valid: ../kube-system/a"});
    cases.put(
        "continue=" + token("hello"),
        new Object[] {
          400,
          "invalid continue token: continue key is not valid: invalid character 'h' looking for"
              + " beginning of value"
        });
    cases.put(
        "watch=1&sendInitialEvents=true",
        new Object[] {
          422,
          invalid
              + "resourceVersionMatch: Forbidden: sendInitialEvents requires setting"
              + " resourceVersionMatch to NotOlderThan"
        });
    cases.put(
        "watch=1&resourceVersion=5&resourceVersionMatch=NotOlderThan",
        new Object[] {
          422,
          invalid
              + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless"
              + " sendInitialEvents is provided"
        });
    cases.put(
        "watch=1&sendInitialEvents=true&resourceVersionMatch=Exact",
        new Object[] {
          422,
          invalid
              + "[resourceVersionMatch: Forbidden: sendInitialEvents requires setting"
              + " resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value:"
              + " \"Exact\": supported values: \"NotOlderThan\"]"
        });
    return cases.entrySet().stream()
        .map(e -> Arguments.of(e.getKey(), e.getValue()[0], e.getValue()[1]));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void badOptions(String query, int code, String message) {
    HttpResponse<String> r = f.get("/api/v1/namespaces/default/configmaps?" + query, null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(code);
    JsonNode s = Json.MAPPER.readTree(r.body());
    assertThat(s.get("kind").asString()).isEqualTo("Status");
    assertThat(s.get("message").asString()).isEqualTo(message);
    if (code == 422) {
      assertThat(s.at("/details/group").asString()).isEqualTo("meta.k8s.io");
      assertThat(s.at("/details/kind").asString()).isEqualTo("ListOptions");
      assertThat(s.at("/details/causes/0/field").asString()).isNotEmpty();
    }
  }
}
