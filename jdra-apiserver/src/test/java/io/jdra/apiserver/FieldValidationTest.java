package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code fieldValidation} on every write path, with kube-apiserver's messages: Strict names every
 * unknown and duplicate field in one error, Warn (the default) sends one Warning header per field,
 * Ignore is silent, and unknown fields are never stored.
 */
class FieldValidationTest {
  static ServerFixture f;

  static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";
  static final String BASE = DEPLOYMENTS + "/base";

  @BeforeAll
  static void start() {
    f = new ServerFixture();
    HttpResponse<String> r =
        f.raw("POST", DEPLOYMENTS, "application/json", deployment("base", "\"replicas\":1"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  static String deployment(String name, String spec) {
    return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{"
        + spec
        + ",\"selector\":{\"matchLabels\":{\"app\":\"x\"}},\"template\":{\"metadata\":{"
        + "\"labels\":{\"app\":\"x\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}";
  }

  static String yamlDeployment(String name, String specLines) {
    return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: "
        + name
        + "\nspec:\n"
        + specLines
        + "  selector:\n    matchLabels: {app: x}\n  template:\n    metadata:\n"
        + "      labels: {app: x}\n    spec:\n      containers:\n      - {name: c, image: i}\n";
  }

  /**
   * One request and what must come back.
   *
   * @param message the Status message (null: success expected)
   * @param warnings the Warning header values, in order
   */
  record Case(
      String method,
      String path,
      String contentType,
      String body,
      int code,
      String message,
      List<String> warnings) {}

  static final String CANNOT = "Deployment in version \"v1\" cannot be handled as a Deployment: ";

  static Stream<Arguments> cases() {
    return Stream.of(
        c(
            "JSON create, Strict: every unknown and duplicate field in one error",
            new Case(
                "POST",
                DEPLOYMENTS + "?fieldValidation=Strict",
                "application/json",
                deployment("s1", "\"foo\":1,\"replicas\":1,\"replicas\":2,\"bar\":{\"x\":1}")
                    .replace("\"image\":\"i\"", "\"image\":\"i\",\"baz\":true"),
                400,
                CANNOT
                    + "strict decoding error: unknown field \"spec.foo\", duplicate field"
                    + " \"spec.replicas\", unknown field \"spec.bar\", unknown field"
                    + " \"spec.template.spec.containers[0].baz\"",
                List.of())),
        c(
            "JSON create, no directive means Warn: one header per field",
            new Case(
                "POST",
                DEPLOYMENTS,
                "application/json",
                deployment("w1", "\"foo\":1,\"replicas\":1,\"bar\":2"),
                201,
                null,
                List.of(
                    "299 - \"unknown field \\\"spec.foo\\\"\"",
                    "299 - \"unknown field \\\"spec.bar\\\"\""))),
        c(
            "warnings found before a failure go out with it",
            new Case(
                "POST",
                DEPLOYMENTS,
                "application/json",
                deployment("base", "\"replicas\":1,\"foo\":1"),
                409,
                "deployments.apps \"base\" already exists",
                List.of("299 - \"unknown field \\\"spec.foo\\\"\""))),
        c(
            "JSON create, Ignore: silent",
            new Case(
                "POST",
                DEPLOYMENTS + "?fieldValidation=Ignore",
                "application/json",
                deployment("i1", "\"foo\":1,\"replicas\":1,\"replicas\":1"),
                201,
                null,
                List.of())),
        c(
            "YAML create, Strict: goyaml's duplicate error first, then unknown fields in key order",
            new Case(
                "POST",
                DEPLOYMENTS + "?fieldValidation=Strict",
                "application/yaml",
                yamlDeployment("y1", "  zz: 1\n  replicas: 1\n  replicas: 2\n  aa: 1\n"),
                400,
                CANNOT
                    + "strict decoding error: yaml: unmarshal errors:\n"
                    + "  line 8: key \"replicas\" already set in map, unknown field \"spec.aa\","
                    + " unknown field \"spec.zz\"",
                List.of())),
        c(
            "YAML create, Warn: one header per goyaml line",
            new Case(
                "POST",
                DEPLOYMENTS + "?fieldValidation=Warn",
                "application/yaml",
                yamlDeployment("y2", "  replicas: 1\n  replicas: 2\n  zz: 1\n"),
                201,
                null,
                List.of(
                    "299 - \"line 7: key \\\"replicas\\\" already set in map\"",
                    "299 - \"unknown field \\\"spec.zz\\\"\""))),
        c(
            "unsupported directive",
            new Case(
                "POST",
                DEPLOYMENTS + "?fieldValidation=Loud",
                "application/json",
                deployment("x", "\"replicas\":1"),
                422,
                "CreateOptions.meta.k8s.io \"\" is invalid: fieldValidation: Unsupported value:"
                    + " \"Loud\": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"",
                List.of())),
        c(
            "update, Strict",
            new Case(
                "PUT",
                BASE + "?fieldValidation=Strict",
                "application/json",
                deployment("base", "\"replicas\":1,\"foo\":1"),
                400,
                CANNOT + "strict decoding error: unknown field \"spec.foo\"",
                List.of())),
        c(
            "merge patch, Strict: 422 on the patched object",
            new Case(
                "PATCH",
                BASE + "?fieldValidation=Strict",
                "application/merge-patch+json",
                "{\"spec\":{\"zz\":1,\"aa\":{\"b\":1,\"b\":2}}}",
                422,
                "strict decoding error: duplicate field \"spec.aa.b\", unknown field \"spec.aa\","
                    + " unknown field \"spec.zz\"",
                List.of())),
        c(
            "strategic merge patch, Strict: the patch map as Go prints it, unknown fields sorted",
            new Case(
                "PATCH",
                BASE + "?fieldValidation=Strict",
                "application/strategic-merge-patch+json",
                "{\"spec\":{\"zz\":1,\"replicas\":2,\"aa\":\"x\"}}",
                422,
                " \"\" is invalid: patch: Invalid value: \"map[spec:map[aa:x replicas:2 zz:1]]\":"
                    + " strict decoding error: unknown field \"spec.aa\", unknown field \"spec.zz\"",
                List.of())),
        c(
            "JSON patch, Warn: the operations' own errors are prefixed",
            new Case(
                "PATCH",
                BASE,
                "application/json-patch+json",
                "[{\"op\":\"add\",\"path\":\"/spec/zz\",\"value\":1,\"foo\":2}]",
                200,
                null,
                List.of(
                    "299 - \"json patch unknown field \\\"[0].foo\\\"\"",
                    "299 - \"unknown field \\\"spec.zz\\\"\""))),
        c(
            "server-side apply, Strict: duplicate keys",
            new Case(
                "PATCH",
                DEPLOYMENTS + "/a1?fieldValidation=Strict&fieldManager=t",
                "application/apply-patch+yaml",
                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a1\n  name: a1\n",
                400,
                "error strict decoding patch: error converting YAML to JSON: yaml: unmarshal"
                    + " errors:\n  line 5: key \"name\" already set in map",
                List.of())),
        c(
            "apply without a field manager and with an unsupported directive: one 422",
            new Case(
                "PATCH",
                DEPLOYMENTS + "/a3?fieldValidation=Loud",
                "application/apply-patch+yaml",
                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a3\n",
                422,
                "PatchOptions.meta.k8s.io \"\" is invalid: [fieldManager: Required value: is required"
                    + " for apply patch, fieldValidation: Unsupported value: \"Loud\": supported"
                    + " values: \"\", \"Ignore\", \"Strict\", \"Warn\"]",
                List.of())),
        c(
            "force on a merge patch",
            new Case(
                "PATCH",
                BASE + "?force=true",
                "application/merge-patch+json",
                "{}",
                422,
                "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for"
                    + " non-apply patch",
                List.of())),
        c(
            "server-side apply, Warn",
            new Case(
                "PATCH",
                DEPLOYMENTS + "/a2?fieldManager=t",
                "application/apply-patch+yaml",
                yamlDeployment("a2", "  replicas: 1\n  replicas: 1\n"),
                201,
                null,
                List.of("299 - \"line 7: key \\\"replicas\\\" already set in map\""))));
  }

  static Arguments c(String name, Case c) {
    return Arguments.of(Named.of(name, c));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void answers(Case c) {
    HttpResponse<String> r = f.raw(c.method(), c.path(), c.contentType(), c.body());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(c.code());
    assertThat(r.headers().allValues("Warning")).containsExactlyElementsOf(c.warnings());
    JsonNode body = Json.MAPPER.readTree(r.body());
    if (c.message() == null) {
      assertThat(body.toString()).doesNotContain("\"zz\"", "\"foo\"", "\"bar\"", "\"aa\"");
    } else if (c.code() == 422 && !c.message().contains(".meta.k8s.io")) {
      assertThat(body.get("message").asString()).endsWith(c.message());
      assertThat(body.at("/details/causes/0/field").asString()).isEqualTo("patch");
      assertThat(body.at("/details/causes/0/reason").asString()).isEqualTo("FieldValueInvalid");
    } else {
      assertThat(body.get("message").asString()).isEqualTo(c.message());
    }
  }

  @Test
  void bindingBodiesAreValidatedAsCreatesOfBinding() {
    String pods = "/api/v1/namespaces/default/pods";
    HttpResponse<String> pod =
        f.raw(
            "POST",
            pods,
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}");
    assertThat(pod.statusCode()).as(pod.body()).isEqualTo(201);
    String binding =
        "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"p\"},"
            + "\"target\":{\"kind\":\"Node\",\"name\":\"n1\",\"foo\":1}}";
    HttpResponse<String> strict =
        f.raw("POST", pods + "/p/binding?fieldValidation=Strict", "application/json", binding);
    assertThat(strict.statusCode()).as(strict.body()).isEqualTo(400);
    assertThat(Json.MAPPER.readTree(strict.body()).get("message").asString())
        .isEqualTo(
            "Binding in version \"v1\" cannot be handled as a Binding: strict decoding error:"
                + " unknown field \"target.foo\"");
    HttpResponse<String> warn = f.raw("POST", pods + "/p/binding", "application/json", binding);
    assertThat(warn.statusCode()).as(warn.body()).isEqualTo(201);
    assertThat(warn.headers().allValues("Warning"))
        .containsExactly("299 - \"unknown field \\\"target.foo\\\"\"");
  }

  @Test
  void unknownFieldsAreNeverStored() {
    HttpResponse<String> r =
        f.raw(
            "POST",
            DEPLOYMENTS + "?fieldValidation=Ignore",
            "application/json",
            deployment("stored", "\"replicas\":1,\"foo\":{\"a\":1}"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    JsonNode got = Json.MAPPER.readTree(f.get(DEPLOYMENTS + "/stored", null).body());
    assertThat(got.at("/spec/replicas").asInt()).isEqualTo(1);
    assertThat(got.at("/spec").has("foo")).isFalse();
  }
}
