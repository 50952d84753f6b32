package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** CEL selectors of new objects are compiled at admission, as upstream's validation does. */
class CelSelectorValidationTest {
  static ServerFixture f;
  static final String CLASSES = "/apis/resource.k8s.io/v1/deviceclasses";
  static final String CLAIMS = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims";

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  static String deviceClass(String name, String expression) {
    return "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{\"selectors\":[{\"cel\":{\"expression\":"
        + quote(expression)
        + "}}]}}";
  }

  static String claim(String name, String expression) {
    return "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"r\",\"exactly\":{"
        + "\"deviceClassName\":\"gpu.example.com\",\"selectors\":[{\"cel\":{\"expression\":"
        + quote(expression)
        + "}}]}}]}}}";
  }

  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  record Case(String expression, String message) {}

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of(
            Named.of(
                "syntax error",
                new Case("device.driver ==", "compilation failed: ERROR: <input>:1:"))),
        Arguments.of(Named.of("not a bool", new Case("device.driver", "must evaluate to bool"))),
        Arguments.of(
            Named.of(
                "undeclared reference", new Case("nope == 1", "undeclared reference to 'nope'"))),
        Arguments.of(
            Named.of(
                "5,000 nested parentheses",
                new Case("(".repeat(5_000) + "true" + ")".repeat(5_000), "spec.selectors[0]"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void deviceClassWithABadSelectorIsRefused(Case c) {
    String name = "bad-" + Integer.toHexString(c.expression().hashCode()) + ".example.com";
    HttpResponse<String> r =
        f.raw("POST", CLASSES, "application/json", deviceClass(name, c.expression()));

    assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
    assertThat(r.body()).contains("\"reason\":\"Invalid\"").contains(c.message());
    assertThat(f.get(CLASSES + "/" + name, null).statusCode()).isEqualTo(404);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void claimWithABadSelectorIsRefused(Case c) {
    HttpResponse<String> r =
        f.raw("POST", CLAIMS, "application/json", claim("bad-claim", c.expression()));

    assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
    assertThat(f.get(CLAIMS + "/bad-claim", null).statusCode()).isEqualTo(404);
  }

  @org.junit.jupiter.api.Test
  void goodSelectorsAreStored() {
    HttpResponse<String> dc =
        f.raw(
            "POST",
            CLASSES,
            "application/json",
            deviceClass("good.example.com", "device.driver == \"gpu.example.com\""));
    assertThat(dc.statusCode()).as(dc.body()).isEqualTo(201);
    HttpResponse<String> rc =
        f.raw(
            "POST",
            CLAIMS,
            "application/json",
            claim("good-claim", "device.attributes[\"gpu.example.com\"].model == \"a\""));
    assertThat(rc.statusCode()).as(rc.body()).isEqualTo(201);
  }
}
