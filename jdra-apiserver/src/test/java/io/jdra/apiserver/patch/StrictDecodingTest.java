package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

class StrictDecodingTest {
  private static final String APPS = "apps/v1";
  private static final String RESOURCE = "resource.k8s.io/v1";

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static Stream<Arguments> jsonCases() {
    return Stream.of(
        json(
            "none",
            APPS,
            "Deployment",
            "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"spec\":{\"replicas\":1}}"),
        json(
            "unknown and duplicate fields in document order, nested ones where met",
            APPS,
            "Deployment",
            "{\"metadata\":{\"name\":\"a\",\"name\":\"b\"},\"spec\":{\"foo\":1,\"replicas\":1,"
                + "\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\"},{\"name\":\"d\","
                + "\"baz\":1}]}},\"bar\":2}}",
            "duplicate field \"metadata.name\"",
            "unknown field \"spec.foo\"",
            "unknown field \"spec.template.spec.containers[1].baz\"",
            "unknown field \"spec.bar\""),
        json(
            "a repeated unknown field is reported once",
            APPS,
            "Deployment",
            "{\"spec\":{\"foo\":1,\"foo\":2}}",
            "unknown field \"spec.foo\""),
        json(
            "map keys are joined with dots",
            APPS,
            "Deployment",
            "{\"metadata\":{\"labels\":{\"a\":\"1\",\"a\":\"2\"}}}",
            "duplicate field \"metadata.labels.a\""),
        json(
            "struct in a map",
            RESOURCE,
            "ResourceSlice",
            "{\"spec\":{\"devices\":[{\"name\":\"d\",\"attributes\":{\"model\":{\"string\":\"x\","
                + "\"zz\":1}}}]}}",
            "unknown field \"spec.devices[0].attributes.model.zz\""),
        json(
            "opaque driver parameters are not looked into",
            RESOURCE,
            "ResourceClaim",
            "{\"spec\":{\"devices\":{\"config\":[{\"opaque\":{\"driver\":\"d\",\"parameters\":{"
                + "\"a\":1,\"a\":2,\"anything\":{}}}}]}}}"),
        json(
            "a value of the wrong JSON type is skipped (a type error upstream)",
            APPS,
            "Deployment",
            "{\"spec\":{\"template\":[{\"x\":1}],\"replicas\":{\"y\":1}}}"),
        json(
            "kinds without a schema only have duplicates",
            "example.com/v1",
            "Widget",
            "{\"spec\":{\"foo\":1,\"foo\":2}}",
            "duplicate field \"spec.foo\""));
  }

  private static Arguments json(
      String name, String apiVersion, String kind, String body, String... expected) {
    return Arguments.of(Named.of(name, apiVersion), kind, body, List.of(expected));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jsonCases")
  void jsonErrors(String apiVersion, String kind, String body, List<String> expected) {
    assertThat(StrictDecoding.jsonErrors(apiVersion, kind, bytes(body)))
        .containsExactlyElementsOf(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jsonCases")
  void theTreeWalkAgreesOnDocumentsWithoutDuplicates(
      String apiVersion, String kind, String body, List<String> expected) {
    List<String> unknown = expected.stream().filter(e -> e.startsWith("unknown")).toList();
    assertThat(StrictDecoding.unknownFields(apiVersion, kind, Json.MAPPER.readTree(body), false))
        .containsExactlyElementsOf(unknown);
  }

  @Test
  void sortedKeysForReencodedDocuments() {
    var doc = Json.MAPPER.readTree("{\"spec\":{\"zz\":1,\"aa\":2,\"replicas\":1},\"b\":1}");
    assertThat(StrictDecoding.unknownFields(APPS, "Deployment", doc, true))
        .containsExactly(
            "unknown field \"b\"", "unknown field \"spec.aa\"", "unknown field \"spec.zz\"");
  }

  @Test
  void convertedUnknownFieldsAreSortedByMessage() {
    var doc = Json.MAPPER.readTree("{\"z\":1,\"spec\":{\"b\":1,\"a\":1}}");
    assertThat(StrictDecoding.convertedUnknownFields(APPS, "Deployment", doc))
        .containsExactly(
            "unknown field \"spec.a\"", "unknown field \"spec.b\"", "unknown field \"z\"");
  }

  @Test
  void jsonPatchOperations() {
    assertThat(
            StrictDecoding.jsonPatchErrors(
                bytes(
                    "[{\"op\":\"add\",\"path\":\"/x\",\"value\":{\"a\":1,\"a\":2},\"foo\":1},"
                        + "{\"op\":\"remove\",\"op\":\"remove\",\"path\":\"/y\"}]")))
        .containsExactly(
            "duplicate field \"[0].value.a\"",
            "unknown field \"[0].foo\"",
            "duplicate field \"[1].op\"");
  }

  @Test
  void untypedDocumentsOnlyHaveDuplicates() {
    assertThat(
            StrictDecoding.untypedJsonErrors(
                bytes("{\"spec\":{\"x\":[{\"a\":1,\"a\":2}],\"x\":1},\"foo\":1}")))
        .containsExactly("duplicate field \"spec.x[0].a\"", "duplicate field \"spec.x\"");
  }

  @Test
  void errorsStopAtAHundred() {
    StringBuilder sb = new StringBuilder("{\"spec\":{");
    for (int i = 0; i < 150; i++) {
      sb.append(i == 0 ? "" : ",").append("\"f").append(i).append("\":1");
    }
    sb.append("}}");
    assertThat(StrictDecoding.jsonErrors(APPS, "Deployment", bytes(sb.toString()))).hasSize(100);
  }

  @Test
  void yamlDuplicatesAsGoyamlReportsThem() {
    String yaml = "a: 1\nb:\n  c: 1\n  c: 2\na: 3\nl:\n- {x: 1, x: 2}\n";
    List<String> d = StrictDecoding.yamlDuplicates(bytes(yaml));
    assertThat(d)
        .containsExactly(
            "line 4: key \"c\" already set in map",
            "line 5: key \"a\" already set in map",
            "line 7: key \"x\" already set in map");
    assertThat(StrictDecoding.yamlError(d))
        .startsWith("yaml: unmarshal errors:\n  line 4: key \"c\" already set in map\n  line 5");
    assertThat(StrictDecoding.yamlDuplicates(bytes("a: 1\nb: [1, 1]\n"))).isEmpty();
  }

  @Test
  void yamlDuplicatesOfJsonDocumentsAsGoyamlReportsThem() {
    // JSON without a repeated key is read by the JSON parser; anything else by the YAML scan
    assertThat(StrictDecoding.yamlDuplicates(bytes(" {\"a\":1,\"b\":{\"a\":[{\"a\":1}]}}\n")))
        .isEmpty();
    assertThat(
            StrictDecoding.yamlDuplicates(bytes("{\"a\":1,\n\"b\":{\"c\":1,\n\"c\":2},\n\"a\":3}")))
        .containsExactly(
            "line 3: key \"c\" already set in map", "line 4: key \"a\" already set in map");
    assertThat(StrictDecoding.yamlDuplicates(bytes("{\"a\":\"\\u0062\",\n\"\\u0061\":1}")))
        .containsExactly("line 2: key \"a\" already set in map");
    // a second document after the JSON one is YAML's to read
    assertThat(StrictDecoding.yamlDuplicates(bytes("{\"a\":1}\n---\n{\"b\":1,\"b\":2}"))).isEmpty();
  }

  @Test
  void pruneDropsWhatGoDecodingDrops() {
    ObjectNode o =
        (ObjectNode)
            Json.MAPPER.readTree(
                "{\"spec\":{\"foo\":1,\"replicas\":2,\"template\":{\"spec\":{\"containers\":"
                    + "[{\"name\":\"c\",\"baz\":1}]}}},\"metadata\":{\"labels\":{\"x\":\"y\"}}}");
    StrictDecoding.prune(APPS, "Deployment", o);
    assertThat(o)
        .isEqualTo(
            Json.MAPPER.readTree(
                "{\"spec\":{\"replicas\":2,\"template\":{\"spec\":{\"containers\":"
                    + "[{\"name\":\"c\"}]}}},\"metadata\":{\"labels\":{\"x\":\"y\"}}}"));
  }

  @Test
  void goQuoteEscapesAsStrconv() {
    assertThat(io.jdra.api.validation.GoFormat.quote("a\"b\\c\n\u0001é"))
        .isEqualTo("\"a\\\"b\\\\c\\n\\x01é\"");
    assertThat(io.jdra.api.validation.GoFormat.quote("\u200b")).isEqualTo("\"\\u200b\"");
  }
}
