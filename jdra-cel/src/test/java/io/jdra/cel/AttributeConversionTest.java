package io.jdra.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream converts every attribute of a device before it evaluates a selector, so an attribute it
 * cannot represent fails every selector on that device, also one that never reads it.
 */
class AttributeConversionTest {
  /** name, the attribute "a", DRAListTypeAttributes, the expected error or "" for a match. */
  static Stream<Arguments> cases() {
    DeviceAttribute empty = new DeviceAttribute();
    DeviceAttribute strings = new DeviceAttributeBuilder().withStrings("x", "y").build();
    DeviceAttribute ints = new DeviceAttributeBuilder().withInts(1L, 2L).build();
    DeviceAttribute badVersion = new DeviceAttributeBuilder().withVersion("1.0").build();
    DeviceAttribute scalar = new DeviceAttributeBuilder().withString("x").build();
    String unsupported = "attribute a: unsupported attribute value";
    return Stream.of(
        Arguments.of("no value, lists on", empty, true, unsupported),
        Arguments.of("no value, lists off", empty, false, unsupported),
        Arguments.of("string list, lists on", strings, true, ""),
        Arguments.of("string list, lists off", strings, false, unsupported),
        Arguments.of("int list, lists off", ints, false, unsupported),
        Arguments.of(
            "version that does not parse",
            badVersion,
            true,
            "attribute a: parse semantic version: No Major.Minor.Patch elements found"),
        Arguments.of("scalar, lists off", scalar, false, ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void beforeEvaluation(String name, DeviceAttribute a, boolean lists, String error)
      throws Exception {
    DeviceInput in =
        DeviceInput.of(
            "d", new DeviceBuilder().withName("dev").withAttributes(Map.of("a", a)).build());
    CompiledSelector s =
        DeviceSelectorCompiler.create(
                CompilerOptions.storedExpressions().withListTypeAttributes(lists))
            .compile("device.driver == 'd'")
            .orElseThrow();
    if (error.isEmpty()) {
      assertThat(s.matches(in)).isTrue();
      return;
    }
    assertThatThrownBy(() -> s.matches(in))
        .isInstanceOf(CelEvaluationException.class)
        .hasMessage(error);
    // The outcome is remembered per device; asking again gives the same answer.
    assertThatThrownBy(() -> s.matches(in)).hasMessage(error);
  }
}
