package io.jdra.api.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FieldErrorTest {
  private static final FieldPath COUNT =
      FieldPath.root("spec", "devices").child("requests").index(0).child("exactly", "count");

  static Stream<Arguments> errors() {
    return Stream.of(
        Arguments.of(
            FieldError.invalid(COUNT, 0L, "must be greater than zero"),
            "spec.devices.requests[0].exactly.count: Invalid value: 0: must be greater than zero"),
        Arguments.of(
            FieldError.invalid(FieldPath.root("a"), "x\"y\n", "bad"),
            "a: Invalid value: \"x\\\"y\\n\": bad"),
        Arguments.of(
            FieldError.invalid(FieldPath.root("a"), null, "d"), "a: Invalid value: null: d"),
        Arguments.of(
            FieldError.invalid(FieldPath.root("a"), true, "d"), "a: Invalid value: true: d"),
        Arguments.of(
            FieldError.invalid(FieldPath.root("a"), List.of("x", "y"), "d"),
            "a: Invalid value: [\"x\",\"y\"]: d"),
        Arguments.of(
            FieldError.invalid(FieldPath.root("a"), Map.of("k", 1), "d"),
            "a: Invalid value: {\"k\":1}: d"),
        Arguments.of(
            FieldError.invalid(FieldPath.root("a"), "<b>", "d"), "a: Invalid value: \"<b>\": d"),
        Arguments.of(FieldError.required(FieldPath.root("a"), ""), "a: Required value"),
        Arguments.of(
            FieldError.required(FieldPath.root("a"), "must be set"),
            "a: Required value: must be set"),
        Arguments.of(FieldError.forbidden(FieldPath.root("a"), "no"), "a: Forbidden: no"),
        Arguments.of(
            FieldError.tooLong(FieldPath.root("a").child("b"), 10240),
            "a.b: Too long: may not be more than 10240 bytes"),
        Arguments.of(
            FieldError.tooLong(FieldPath.root("a"), 1), "a: Too long: may not be more than 1 byte"),
        Arguments.of(
            FieldError.tooMany(FieldPath.root("a"), 33, 32),
            "a: Too many: 33: must have at most 32 items"),
        Arguments.of(
            FieldError.tooMany(FieldPath.root("a"), 2, 1),
            "a: Too many: 2: must have at most 1 item"),
        Arguments.of(
            FieldError.tooMany(FieldPath.root("a"), -1, 1),
            "a: Too many: must have at most 1 item"),
        Arguments.of(
            FieldError.duplicate(FieldPath.root("a").index(1), "x"),
            "a[1]: Duplicate value: \"x\""),
        Arguments.of(
            FieldError.notSupported(FieldPath.root("m"), "Some", List.of("All", "ExactCount")),
            "m: Unsupported value: \"Some\": supported values: \"All\", \"ExactCount\""),
        Arguments.of(FieldError.notFound(FieldPath.root("k"), "x"), "k: Not found: \"x\""),
        Arguments.of(FieldError.internal(FieldPath.root("n"), "boom"), "n: Internal error: boom"),
        Arguments.of(
            FieldError.invalid(FieldPath.root("a"), FieldError.OMITTED, "d"),
            "a: Invalid value: d"),
        Arguments.of(
            FieldError.invalid(FieldPath.root("a"), "\u0001é", "d"),
            "a: Invalid value: \"\\x01é\": d"));
  }

  @ParameterizedTest
  @MethodSource("errors")
  void printsLikeUpstream(FieldError error, String expected) {
    assertThat(error.toString()).isEqualTo(expected);
  }

  @Test
  void pathsPrintNamesIndicesAndKeys() {
    FieldPath p = FieldPath.root("spec").child("devices").index(3).child("attributes").key("a/b");
    assertThat(p).hasToString("spec.devices[3].attributes[a/b]");
    assertThat(p.root()).hasToString("spec");
    assertThat(FieldPath.root("metadata", "name")).hasToString("metadata.name");
  }

  @Test
  void errorTypesCarryUpstreamReasons() {
    assertThat(ErrorType.INVALID.reason()).isEqualTo("FieldValueInvalid");
    assertThat(ErrorType.TYPE_INVALID.text()).isEqualTo("Invalid value");
    assertThat(ErrorType.INTERNAL.reason()).isEqualTo("InternalError");
  }
}
