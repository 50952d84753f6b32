package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

class JsonPatchTest {
  private static final String DOC =
      """
      metadata:
        name: p
        labels: {app: web, example.com/tier: fe, a~b: x}
      spec:
        list: [a, b, c]
        n: 1
      """;

  static Stream<Arguments> cases() {
    return Stream.of(
        c(
            "add a field",
            "[{\"op\":\"add\",\"path\":\"/spec/x\",\"value\":{\"y\":1}}]",
            "spec.x",
            "{y: 1}"),
        c(
            "add replaces an existing field",
            "[{\"op\":\"add\",\"path\":\"/spec/n\",\"value\":2}]",
            "spec.n",
            "2"),
        c(
            "add inserts into a list",
            "[{\"op\":\"add\",\"path\":\"/spec/list/1\",\"value\":\"z\"}]",
            "spec.list",
            "[a, z, b, c]"),
        c(
            "add appends with -",
            "[{\"op\":\"add\",\"path\":\"/spec/list/-\",\"value\":\"z\"}]",
            "spec.list",
            "[a, b, c, z]"),
        c(
            "add at the list end index",
            "[{\"op\":\"add\",\"path\":\"/spec/list/3\",\"value\":\"z\"}]",
            "spec.list",
            "[a, b, c, z]"),
        c(
            "remove a field",
            "[{\"op\":\"remove\",\"path\":\"/spec/n\"}]",
            "spec",
            "{list: [a, b, c]}"),
        c(
            "remove a list element",
            "[{\"op\":\"remove\",\"path\":\"/spec/list/0\"}]",
            "spec.list",
            "[b, c]"),
        c(
            "negative index counts from the end",
            "[{\"op\":\"remove\",\"path\":\"/spec/list/-1\"}]",
            "spec.list",
            "[a, b]"),
        c(
            "~1 escapes a slash (kubectl label keys)",
            "[{\"op\":\"remove\",\"path\":\"/metadata/labels/example.com~1tier\"}]",
            "metadata.labels",
            "{app: web, a~b: x}"),
        c(
            "~0 escapes a tilde",
            "[{\"op\":\"replace\",\"path\":\"/metadata/labels/a~0b\",\"value\":\"y\"}]",
            "metadata.labels.a~b",
            "y"),
        c(
            "replace a field",
            "[{\"op\":\"replace\",\"path\":\"/metadata/name\",\"value\":\"q\"}]",
            "metadata.name",
            "q"),
        c(
            "move a field",
            "[{\"op\":\"move\",\"from\":\"/spec/n\",\"path\":\"/spec/m\"}]",
            "spec",
            "{list: [a, b, c], m: 1}"),
        c(
            "move a list element",
            "[{\"op\":\"move\",\"from\":\"/spec/list/0\",\"path\":\"/spec/list/-\"}]",
            "spec.list",
            "[b, c, a]"),
        c(
            "copy a field",
            "[{\"op\":\"copy\",\"from\":\"/spec/list\",\"path\":\"/spec/l2\"}]",
            "spec.l2",
            "[a, b, c]"),
        c(
            "test passes then replace",
            "[{\"op\":\"test\",\"path\":\"/spec/n\",\"value\":1},{\"op\":\"replace\",\"path\":\"/spec/n\",\"value\":5}]",
            "spec.n",
            "5"),
        c(
            "test of a missing path with null passes",
            "[{\"op\":\"test\",\"path\":\"/spec/none\",\"value\":null}]",
            "spec.n",
            "1"),
        c(
            "test compares numbers by value",
            "[{\"op\":\"test\",\"path\":\"/spec/n\",\"value\":1.0}]",
            "spec.n",
            "1"),
        c("empty patch", "[]", "spec.n", "1"),
        c("null patch is a no-op", "null", "spec.n", "1"));
  }

  private static Arguments c(String name, String patch, String select, String expected) {
    return Arguments.of(Named.of(name, patch), select, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void patches(String patch, String select, String expected) throws Exception {
    ObjectNode doc = Yaml.obj(DOC);
    ObjectNode out = Patcher.patch(PatchType.JSON_PATCH, "v1", "Pod", doc, Yaml.bytes(patch));
    assertThat(doc).isEqualTo(Yaml.obj(DOC));
    assertThat(Select.at(out, select)).isEqualTo(Select.yaml(expected));
  }

  static Stream<Arguments> errors() {
    String generic = "the server rejected our request due to an error in our request";
    return Stream.of(
        e("not JSON", "[{", 400, "BadRequest", "invalid JSON patch", null),
        e(
            "an object",
            "{\"op\":\"add\"}",
            400,
            "BadRequest",
            "json: cannot unmarshal object into Go value of type jsonpatch.Patch",
            null),
        e(
            "a string element",
            "[\"x\"]",
            400,
            "BadRequest",
            "json: cannot unmarshal string into Go value of type jsonpatch.Operation",
            null),
        e(
            "unknown op",
            "[{\"op\":\"frob\",\"path\":\"/a\"}]",
            422,
            "Invalid",
            generic,
            "Unexpected kind: frob"),
        e("missing op", "[{\"path\":\"/a\"}]", 422, "Invalid", generic, "Unexpected kind: unknown"),
        e(
            "missing path",
            "[{\"op\":\"add\",\"value\":1}]",
            422,
            "Invalid",
            generic,
            "operation missing path field: missing value"),
        e(
            "add without value",
            "[{\"op\":\"add\",\"path\":\"/a\"}]",
            422,
            "Invalid",
            generic,
            "operation, missing value field: missing value"),
        e(
            "add under a missing parent",
            "[{\"op\":\"add\",\"path\":\"/x/y\",\"value\":1}]",
            422,
            "Invalid",
            generic,
            "add operation does not apply: doc is missing path: \"/x/y\": missing value"),
        e(
            "remove a missing key",
            "[{\"op\":\"remove\",\"path\":\"/spec/zz\"}]",
            422,
            "Invalid",
            generic,
            "error in remove for path: '/spec/zz': Unable to remove nonexistent key: zz: missing value"),
        e(
            "replace a missing key",
            "[{\"op\":\"replace\",\"path\":\"/spec/zz\",\"value\":1}]",
            422,
            "Invalid",
            generic,
            "replace operation does not apply: doc is missing key: /spec/zz: missing value"),
        e(
            "index out of range",
            "[{\"op\":\"replace\",\"path\":\"/spec/list/3\",\"value\":1}]",
            422,
            "Invalid",
            generic,
            "Unable to access invalid index: 3: invalid index referenced"),
        e(
            "failed test",
            "[{\"op\":\"test\",\"path\":\"/spec/n\",\"value\":2}]",
            422,
            "Invalid",
            generic,
            "testing value /spec/n failed: test failed"),
        e(
            "empty path",
            "[{\"op\":\"replace\",\"path\":\"\",\"value\":{}}]",
            422,
            "Invalid",
            generic,
            "replace operation does not apply: doc is missing path: : missing value"),
        e(
            "move from missing",
            "[{\"op\":\"move\",\"from\":\"/q\",\"path\":\"/r\"}]",
            422,
            "Invalid",
            generic,
            "move operation does not apply: doc is missing from path: /q: missing value"));
  }

  private static Arguments e(
      String name, String patch, int code, String reason, String message, String detail) {
    return Arguments.of(Named.of(name, patch), code, reason, message, detail);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void rejects(String patch, int code, String reason, String message, String detail) {
    assertThatThrownBy(() ->
            Patcher.patch(PatchType.JSON_PATCH, "v1", "Pod", Yaml.obj(DOC), Yaml.bytes(patch)))
        .isInstanceOfSatisfying(
            PatchException.class,
            ex -> {
              assertThat(ex.code()).isEqualTo(code);
              assertThat(ex.reason()).isEqualTo(reason);
              assertThat(ex.getMessage()).isEqualTo(message);
              assertThat(ex.causes()).isEmpty();
              if (detail != null) {
                assertThat(ex.getCause()).hasMessage(detail);
              }
            });
  }

  @Test
  void tooManyOperations() {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < 10001; i++) {
      sb.append(i == 0 ? "" : ",").append("{\"op\":\"test\",\"path\":\"/spec/n\",\"value\":1}");
    }
    String patch = sb.append("]").toString();
    assertThatThrownBy(() ->
            Patcher.patch(PatchType.JSON_PATCH, "v1", "Pod", Yaml.obj(DOC), Yaml.bytes(patch)))
        .isInstanceOfSatisfying(
            PatchException.class,
            ex -> {
              assertThat(ex.code()).isEqualTo(413);
              assertThat(ex.reason()).isEqualTo("RequestEntityTooLarge");
              assertThat(ex.getMessage())
                  .isEqualTo(
                      "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001");
            });
  }

  /**
   * Copies of a subtree into itself double it each time: upstream bounds the bytes all copies of
   * one patch add (JSONPatchMaxCopyBytes, the 3 MiB request limit) and answers 422.
   */
  @Test
  void copiesAreBoundedInBytes() {
    StringBuilder sb =
        new StringBuilder("[{\"op\":\"add\",\"path\":\"/spec/a\",\"value\":{\"s\":\"");
    sb.append("x".repeat(100_000)).append("\"}}");
    for (int i = 0; i < 6; i++) {
      sb.append(",{\"op\":\"copy\",\"from\":\"/spec/a\",\"path\":\"/spec/a/c")
          .append(i)
          .append("\"}");
    }
    String patch = sb.append("]").toString();
    assertThatThrownBy(() ->
            Patcher.patch(PatchType.JSON_PATCH, "v1", "Pod", Yaml.obj(DOC), Yaml.bytes(patch)))
        .isInstanceOfSatisfying(
            PatchException.class,
            ex -> {
              assertThat(ex.code()).isEqualTo(422);
              assertThat(ex.getCause())
                  .hasMessage(
                      "Unable to complete the copy, the accumulated size increase of copy is"
                          + " 6300846, exceeding the limit 3145728");
            });
  }

  @Test
  void copiesUnderTheLimitApply() throws Exception {
    String patch =
        "[{\"op\":\"add\",\"path\":\"/spec/a\",\"value\":{\"s\":\""
            + "x".repeat(1_000_000)
            + "\"}},{\"op\":\"copy\",\"from\":\"/spec/a\",\"path\":\"/spec/b\"},"
            + "{\"op\":\"copy\",\"from\":\"/spec/a\",\"path\":\"/spec/c\"}]";
    ObjectNode out =
        Patcher.patch(PatchType.JSON_PATCH, "v1", "Pod", Yaml.obj(DOC), Yaml.bytes(patch));
    assertThat(out.get("spec").get("c").get("s").stringValue()).hasSize(1_000_000);
  }
}
