package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A resourceVersion a PATCH body carries is a precondition, as for PUT: upstream compares the
 * patched object's resourceVersion with the stored one and answers 409 on a mismatch.
 */
class PatchPreconditionTest {
  static ServerFixture f;
  static final String CMS = "/api/v1/namespaces/default/configmaps";
  static final AtomicInteger names = new AtomicInteger();

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  /** A patch type and a body setting annotation a=b at resourceVersion RV. */
  record Case(String contentType, String body) {
    String at(String name, String rv) {
      return body.replace("NAME", name).replace("RV", rv);
    }
  }

  static Stream<Arguments> patches() {
    return Stream.of(
        named(
            "merge",
            "application/merge-patch+json",
            "{\"metadata\":{\"resourceVersion\":\"RV\",\"annotations\":{\"a\":\"b\"}}}"),
        named(
            "strategic merge",
            "application/strategic-merge-patch+json",
            "{\"metadata\":{\"resourceVersion\":\"RV\",\"annotations\":{\"a\":\"b\"}}}"),
        named(
            "JSON patch replace",
            "application/json-patch+json",
            "[{\"op\":\"replace\",\"path\":\"/metadata/resourceVersion\",\"value\":\"RV\"},"
                + "{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":{\"a\":\"b\"}}]"),
        named(
            "apply",
            "application/apply-patch+yaml",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"NAME\","
                + "\"resourceVersion\":\"RV\",\"annotations\":{\"a\":\"b\"}}}"));
  }

  static Arguments named(String name, String contentType, String body) {
    return Arguments.of(Named.of(name, new Case(contentType, body)));
  }

  static String createConfigMap() {
    String name = "cm-" + names.incrementAndGet();
    HttpResponse<String> r =
        f.raw(
            "POST",
            CMS,
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                + name
                + "\"},\"data\":{\"n\":\"0\"}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return name;
  }

  static String resourceVersion(String json) {
    Matcher m = Pattern.compile("\"resourceVersion\":\"(\\d+)\"").matcher(json);
    assertThat(m.find()).as(json).isTrue();
    return m.group(1);
  }

  static HttpResponse<String> patch(String name, String contentType, String body) {
    String q = contentType.startsWith("application/apply") ? "?fieldManager=test" : "";
    return f.raw("PATCH", CMS + "/" + name + q, contentType, body);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("patches")
  void staleResourceVersionConflicts(Case c) {
    String name = createConfigMap();
    String rv1 = resourceVersion(f.get(CMS + "/" + name, null).body());
    HttpResponse<String> first =
        patch(name, "application/merge-patch+json", "{\"data\":{\"n\":\"1\"}}");
    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);

    HttpResponse<String> stale = patch(name, c.contentType(), c.at(name, rv1));

    assertThat(stale.statusCode()).as(stale.body()).isEqualTo(409);
    assertThat(stale.body())
        .contains("\"reason\":\"Conflict\"")
        .contains(
            "Operation cannot be fulfilled on configmaps \\\""
                + name
                + "\\\": the object has been modified; please apply your changes to the latest"
                + " version and try again");
    assertThat(f.get(CMS + "/" + name, null).body()).doesNotContain("\"a\":\"b\"");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("patches")
  void currentResourceVersionApplies(Case c) {
    String name = createConfigMap();
    String rv = resourceVersion(f.get(CMS + "/" + name, null).body());

    HttpResponse<String> r = patch(name, c.contentType(), c.at(name, rv));

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.body()).contains("\"a\":\"b\"");
    assertThat(Long.parseLong(resourceVersion(r.body()))).isGreaterThan(Long.parseLong(rv));
  }

  /**
   * Writers doing read-modify-write by merge patch with the resourceVersion they read: every
   * acknowledged increment is in the final value (bounded: 8 writers, 25 increments each).
   */
  @Test
  void readModifyWriteByPatchLosesNoIncrement() throws Exception {
    String name = createConfigMap();
    AtomicInteger acknowledged = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < 8; w++) {
        writers.add(pool.submit(() -> incrementTimes(name, 25, acknowledged)));
      }
      for (Future<?> w : writers) {
        w.get();
      }
    } finally {
      pool.shutdownNow();
    }
    String body = f.get(CMS + "/" + name, null).body();
    assertThat(acknowledged.get()).isEqualTo(200);
    assertThat(body).contains("\"n\":\"200\"");
  }

  private static void incrementTimes(String name, int times, AtomicInteger acknowledged) {
    Pattern n = Pattern.compile("\"n\":\"(\\d+)\"");
    int done = 0;
    while (done < times) {
      String current = f.get(CMS + "/" + name, null).body();
      Matcher m = n.matcher(current);
      assertThat(m.find()).as(current).isTrue();
      int next = Integer.parseInt(m.group(1)) + 1;
      HttpResponse<String> r =
          patch(
              name,
              "application/merge-patch+json",
              "{\"metadata\":{\"resourceVersion\":\""
                  + resourceVersion(current)
                  + "\"},\"data\":{\"n\":\""
                  + next
                  + "\"}}");
      if (r.statusCode() == 200) {
        acknowledged.incrementAndGet();
        done++;
      } else {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(409);
      }
    }
  }
}
