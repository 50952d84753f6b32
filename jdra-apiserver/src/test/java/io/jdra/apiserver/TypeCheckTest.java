package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Values of the wrong type in built-in kinds are refused as upstream's decoder refuses them, so
 * that typed clients can always decode what is stored.
 */
class TypeCheckTest {
  static ServerFixture f;
  static final String CMS = "/api/v1/namespaces/default/configmaps";
  static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  record Case(String path, String body, String message) {}

  static Stream<Arguments> creates() {
    return Stream.of(
        c(
            "ConfigMap data as a list",
            CMS,
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},"
                + "\"data\":[\"x\"]}",
            "ConfigMap in version \\\"v1\\\" cannot be handled as a ConfigMap: json: cannot"
                + " unmarshal array into Go struct field ConfigMap.data of type"
                + " map[string]string"),
        c(
            "labels as a list",
            CMS,
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\","
                + "\"labels\":[\"x\"]}}",
            "ConfigMap in version \\\"v1\\\" cannot be handled as a ConfigMap: json: cannot"
                + " unmarshal array into Go struct field ObjectMeta.metadata.labels of type"
                + " map[string]string"),
        c(
            "label value a number",
            CMS,
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\","
                + "\"labels\":{\"a\":1}}}",
            "ConfigMap in version \\\"v1\\\" cannot be handled as a ConfigMap: json: cannot"
                + " unmarshal number into Go struct field ObjectMeta.metadata.labels of type"
                + " string"),
        c(
            "annotation value a bool",
            CMS,
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"d\","
                + "\"annotations\":{\"a\":true}}}",
            "ConfigMap in version \\\"v1\\\" cannot be handled as a ConfigMap: json: cannot"
                + " unmarshal bool into Go struct field ObjectMeta.metadata.annotations of type"
                + " string"),
        c(
            "replicas a string",
            DEPLOYMENTS,
            "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"e\"},"
                + "\"spec\":{\"replicas\":\"abc\"}}",
            "Deployment in version \\\"v1\\\" cannot be handled as a Deployment: json: cannot"
                + " unmarshal string into Go struct field DeploymentSpec.spec.replicas of type"
                + " int32"),
        c(
            "containerPort out of range",
            "/api/v1/namespaces/default/pods",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\","
                + "\"ports\":[{\"containerPort\":4294967296}]}]}}",
            "Pod in version \\\"v1\\\" cannot be handled as a Pod: json: cannot unmarshal number"
                + " 4294967296 into Go struct field ContainerPort.spec.containers.ports"
                + ".containerPort of type int32"),
        c(
            "containerPort 1e400",
            "/api/v1/namespaces/default/pods",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"r\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\","
                + "\"ports\":[{\"containerPort\":1e400}]}]}}",
            " into Go struct field ContainerPort.spec.containers.ports.containerPort of type"
                + " int32"),
        c(
            "a container as a string",
            "/api/v1/namespaces/default/pods",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"q\"},"
                + "\"spec\":{\"containers\":[\"c\"]}}",
            "Pod in version \\\"v1\\\" cannot be handled as a Pod: json: cannot unmarshal string"
                + " into Go struct field PodSpec.spec.containers of type v1.Container"));
  }

  static Arguments c(String name, String path, String body, String message) {
    return Arguments.of(Named.of(name, new Case(path, body, message)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("creates")
  void createIsRefused(Case c) {
    HttpResponse<String> r = f.raw("POST", c.path(), "application/json", c.body());

    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(r.body()).contains("\"reason\":\"BadRequest\"").contains(c.message());
    assertThat(f.get(CMS, null).body()).doesNotContain("\"data\":[");
  }

  @Test
  void updateIsRefused() {
    created("u");
    HttpResponse<String> r =
        f.raw(
            "PUT",
            CMS + "/u",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"u\"},"
                + "\"data\":{\"k\":[1]}}");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(r.body())
        .contains(
            "json: cannot unmarshal array into Go struct field ConfigMap.data of type string");
  }

  @Test
  void mergePatchIsRefused() {
    created("m");
    HttpResponse<String> r =
        f.raw(
            "PATCH",
            CMS + "/m",
            "application/merge-patch+json",
            "{\"metadata\":{\"labels\":{\"a\":1}}}");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
    assertThat(r.body())
        .contains("\"reason\":\"Invalid\"")
        .contains("\"field\":\"patch\"")
        .contains(
            "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of"
                + " type string");
    assertThat(f.get(CMS + "/m", null).body()).doesNotContain("\"labels\"");
  }

  @Test
  void applyIsRefused() {
    HttpResponse<String> r =
        f.raw(
            "PATCH",
            CMS + "/applied?fieldManager=test",
            "application/apply-patch+yaml",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"applied\"},"
                + "\"data\":[\"x\"]}");

    assertThat(r.statusCode()).as(r.body()).isBetween(400, 499);
    assertThat(f.get(CMS + "/applied", null).statusCode()).isEqualTo(404);
  }

  @Test
  void strategicReplaceCannotRemoveAPodsSpec() {
    HttpResponse<String> created =
        f.raw(
            "POST",
            "/api/v1/namespaces/default/pods",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"keep\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

    HttpResponse<String> r =
        f.raw(
            "PATCH",
            "/api/v1/namespaces/default/pods/keep",
            "application/strategic-merge-patch+json",
            "{\"$patch\":\"replace\",\"metadata\":{\"name\":\"keep\"}}");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
    assertThat(r.body()).contains("spec.containers");
    assertThat(f.get("/api/v1/namespaces/default/pods/keep", null).body())
        .contains("\"containers\":[");
  }

  private static void created(String name) {
    HttpResponse<String> r =
        f.raw(
            "POST",
            CMS,
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                + name
                + "\"}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
  }
}
