package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

class MergePatchTest {
  /** RFC 7386 appendix A, plus kubectl patch --type merge. */
  static Stream<Arguments> cases() {
    return Stream.of(
        c("replace a value", "{a: b}", "{\"a\":\"c\"}", "{a: c}"),
        c("add a value", "{a: b}", "{\"b\":\"c\"}", "{a: b, b: c}"),
        c("null removes", "{a: b}", "{\"a\":null}", "{}"),
        c("null removes one of two", "{a: b, b: c}", "{\"a\":null}", "{b: c}"),
        c("array replaces scalar", "{a: [b]}", "{\"a\":\"c\"}", "{a: c}"),
        c("scalar replaces array", "{a: c}", "{\"a\":[\"b\"]}", "{a: [b]}"),
        c("nested merge", "{a: {b: c}}", "{\"a\":{\"b\":\"d\",\"c\":null}}", "{a: {b: d}}"),
        c("arrays replace whole", "{a: [{b: c}]}", "{\"a\":[1]}", "{a: [1]}"),
        c("nulls in new objects are dropped", "{e: null}", "{\"a\":1}", "{e: null, a: 1}"),
        c("new nested object pruned", "{}", "{\"a\":{\"bb\":{\"ccc\":null}}}", "{a: {bb: {}}}"),
        c("nulls inside arrays stay", "{}", "{\"a\":[null, {\"x\":null}]}", "{a: [null, {}]}"),
        c(
            "kubectl patch --type merge on a label",
            "{metadata: {labels: {a: b}}}",
            "{\"metadata\":{\"labels\":{\"c\":\"d\"}}}",
            "{metadata: {labels: {a: b, c: d}}}"),
        c("empty patch", "{a: b}", "{}", "{a: b}"));
  }

  private static Arguments c(String name, String orig, String patch, String expected) {
    return Arguments.of(Named.of(name, orig), patch, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void patches(String orig, String patch, String expected) throws Exception {
    ObjectNode doc = Yaml.obj(orig);
    ObjectNode out = Patcher.patch(PatchType.MERGE_PATCH, "v1", "Pod", doc, Yaml.bytes(patch));
    assertThat(doc).isEqualTo(Yaml.obj(orig));
    assertThat(out).isEqualTo(Yaml.obj(expected));
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        Arguments.of(Named.of("not JSON", "{a"), 400, "invalid JSON patch"),
        Arguments.of(Named.of("null", "null"), 400, "Invalid JSON Patch"),
        Arguments.of(Named.of("a string", "\"x\""), 400, "Invalid JSON Patch"),
        Arguments.of(
            Named.of("an array", "[1]"),
            422,
            "the server rejected our request due to an error in our request"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void rejects(String patch, int code, String message) {
    assertThatThrownBy(() ->
            Patcher.patch(PatchType.MERGE_PATCH, "v1", "Pod", Yaml.obj("{}"), Yaml.bytes(patch)))
        .isInstanceOfSatisfying(
            PatchException.class,
            ex -> {
              assertThat(ex.code()).isEqualTo(code);
              assertThat(ex.getMessage()).isEqualTo(message);
            });
  }
}
