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

/** Bad requests get the right 4xx Status, exactly as kube-apiserver words it. */
class BadInputTest {
  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  record Case(
      String method, String path, String contentType, String body, int code, String status) {}

  static final String CLAIMS = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims";

  static Stream<Arguments> cases() {
    return Stream.of(
        named(
            "unknown group",
            new Case(
                "GET",
                "/apis/nope.example.com/v1/things",
                null,
                null,
                404,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"the server could not find the requested resource\","
                    + "\"reason\":\"NotFound\",\"details\":{},\"code\":404}")),
        named(
            "missing object",
            new Case(
                "GET",
                CLAIMS + "/missing",
                null,
                null,
                404,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"resourceclaims.resource.k8s.io \\\"missing\\\" not found\","
                    + "\"reason\":\"NotFound\",\"details\":{\"name\":\"missing\","
                    + "\"group\":\"resource.k8s.io\",\"kind\":\"resourceclaims\"},\"code\":404}")),
        named(
            "missing pod",
            new Case(
                "GET",
                "/api/v1/namespaces/default/pods/p",
                null,
                null,
                404,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"pods \\\"p\\\" not found\",\"reason\":\"NotFound\","
                    + "\"details\":{\"name\":\"p\",\"kind\":\"pods\"},\"code\":404}")),
        named(
            "malformed JSON",
            new Case("POST", CLAIMS, "application/json", "{\"kind\":", 400, null)),
        named(
            "malformed YAML",
            new Case("POST", CLAIMS, "application/yaml", "kind: [unclosed", 400, null)),
        named("JSON array body", new Case("POST", CLAIMS, "application/json", "[1,2]", 400, null)),
        named(
            "wrong kind",
            new Case(
                "POST",
                CLAIMS,
                "application/json",
                "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\","
                    + "\"metadata\":{\"name\":\"x\"}}",
                400,
                null)),
        named(
            "wrong group",
            new Case(
                "POST",
                CLAIMS,
                "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"x\"}}",
                400,
                null)),
        named(
            "protobuf body",
            new Case(
                "POST",
                CLAIMS,
                "application/vnd.kubernetes.protobuf",
                "xx",
                400,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"the object provided is unrecognized (must be of type"
                    + " ResourceClaim): provided data does not appear to be a protobuf message,"
                    + " expected prefix [107 56 115 0] (7878)\",\"reason\":\"BadRequest\","
                    + "\"code\":400}")),
        named("CBOR body", new Case("POST", CLAIMS, "application/cbor", "xx", 415, null)),
        named(
            "no name",
            new Case(
                "POST",
                CLAIMS,
                "application/json",
                "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\","
                    + "\"metadata\":{}}",
                422,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"ResourceClaim.resource.k8s.io \\\"\\\" is invalid: "
                    + "metadata.name: Required value: name or generateName is required\","
                    + "\"reason\":\"Invalid\",\"details\":{\"group\":\"resource.k8s.io\","
                    + "\"kind\":\"ResourceClaim\",\"causes\":[{\"reason\":\"FieldValueRequired\","
                    + "\"message\":\"Required value: name or generateName is required\","
                    + "\"field\":\"metadata.name\"}]},\"code\":422}")),
        named(
            "bad name",
            new Case(
                "POST",
                "/api/v1/namespaces/default/configmaps",
                "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"Bad_Name\"}}",
                422,
                null)),
        named(
            "bad label selector",
            new Case("GET", CLAIMS + "?labelSelector=a%20in%20b", null, null, 400, null)),
        named(
            "unsupported field selector",
            new Case(
                "GET",
                CLAIMS + "?fieldSelector=spec.foo%3Dx",
                null,
                null,
                400,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"field label not supported: spec.foo\",\"reason\":\"BadRequest\","
                    + "\"code\":400}")),
        named(
            "namespace mismatch",
            new Case(
                "POST",
                CLAIMS,
                "application/json",
                "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\","
                    + "\"metadata\":{\"name\":\"x\",\"namespace\":\"other\"}}",
                400,
                null)),
        named(
            "cluster-scoped with namespace",
            new Case(
                "GET",
                "/apis/resource.k8s.io/v1/namespaces/default/deviceclasses",
                null,
                null,
                404,
                null)),
        named(
            "unknown field with fieldValidation=Strict",
            new Case(
                "POST",
                CLAIMS + "?fieldValidation=Strict",
                "application/json",
                "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\","
                    + "\"metadata\":{\"name\":\"x\"},\"spec\":{\"foo\":1}}",
                400,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"ResourceClaim in version \\\"v1\\\" cannot be handled as a"
                    + " ResourceClaim: strict decoding error: unknown field \\\"spec.foo\\\"\","
                    + "\"reason\":\"BadRequest\",\"code\":400}")),
        named(
            "invalid claim (count -1)",
            new Case(
                "POST",
                CLAIMS,
                "application/json",
                "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\","
                    + "\"metadata\":{\"name\":\"x\"},\"spec\":{\"devices\":{\"requests\":[{"
                    + "\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"c\",\"allocationMode\":"
                    + "\"ExactCount\",\"count\":-1}}]}}}",
                422,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"ResourceClaim.resource.k8s.io \\\"x\\\" is invalid:"
                    + " spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than"
                    + " zero\",\"reason\":\"Invalid\",\"details\":{\"name\":\"x\","
                    + "\"group\":\"resource.k8s.io\",\"kind\":\"ResourceClaim\",\"causes\":[{"
                    + "\"reason\":\"FieldValueInvalid\",\"message\":\"Invalid value: -1: must be"
                    + " greater than zero\",\"field\":\"spec.devices.requests[0].exactly.count\"}]},"
                    + "\"code\":422}")),
        named(
            "delete options with a grace period out of int64",
            new Case(
                "DELETE",
                CLAIMS + "/x",
                "application/json",
                "{\"gracePeriodSeconds\":99999999999999999999}",
                400,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"json: cannot unmarshal number 99999999999999999999 into Go struct"
                    + " field DeleteOptions.gracePeriodSeconds of type int64\","
                    + "\"reason\":\"BadRequest\",\"code\":400}")),
        named(
            "delete options with a string grace period",
            new Case(
                "DELETE",
                CLAIMS + "/x",
                "application/json",
                "{\"gracePeriodSeconds\":\"5\"}",
                400,
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"json: cannot unmarshal string into Go struct"
                    + " field DeleteOptions.gracePeriodSeconds of type int64\","
                    + "\"reason\":\"BadRequest\",\"code\":400}")),
        named("unknown subresource", new Case("GET", CLAIMS + "/x/scale", null, null, 404, null)));
  }

  static Arguments named(String name, Case c) {
    return Arguments.of(Named.of(name, c));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void answersWithStatus(Case c) {
    HttpResponse<String> r = f.raw(c.method(), c.path(), c.contentType(), c.body());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(c.code());
    assertThat(r.body()).contains("\"kind\":\"Status\"").contains("\"code\":" + c.code());
    if (c.status() != null) {
      assertThat(r.body()).isEqualTo(c.status());
    }
  }

  @Test
  void oversizeBodyIs413() {
    String big = "{\"a\":\"" + "x".repeat(3 * 1024 * 1024 + 10) + "\"}";
    HttpResponse<String> r = f.raw("POST", CLAIMS, "application/json", big);
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(r.body())
        .isEqualTo(
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"Request entity too large: limit is 3145728\","
                + "\"reason\":\"RequestEntityTooLarge\",\"code\":413}");
    // The server is still fine afterwards.
    assertThat(f.raw("GET", CLAIMS, null, null).statusCode()).isEqualTo(200);
  }
}
