package io.jdra.cel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compile-time cost estimates equal upstream's for the same expressions (expected values from
 * Kubernetes' dynamic-resource-allocation/cel/compile_test.go).
 */
class CostEstimateTest {
  private static final DeviceSelectorCompiler COMPILER =
      DeviceSelectorCompiler.create(CompilerOptions.storedExpressions());
  private static final String A = "device.attributes[\"dra.example.com\"]";

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "device.attributes[\"no-such-domain\"].noSuchAttr.isGreaterThan(quantity(\"0\"))", 6L),
        Arguments.of(
            "device.attributes[\"no-such-domain\"][\"noSuchAttr\"].isGreaterThan(quantity(\"0\"))",
            6L),
        Arguments.of("\"no-such-domain\" in device.attributes", 3L),
        Arguments.of("device.driver == \"\"", 2L),
        Arguments.of("device.driver == \"dra.example.com\"", 4L),
        Arguments.of(A + ".name", 4L),
        Arguments.of(A + "[\"name\"]", 4L),
        Arguments.of("cel.bind(dra, " + A + ", dra.name)", 15L),
        Arguments.of(A + ".name > 0", 5L),
        Arguments.of(A + ".name == \"fish\"", 5L),
        Arguments.of(A + ".name.exists(x, x > 0)", 5L + 6 * 64),
        Arguments.of(A + ".names", 4L),
        Arguments.of(A + ".name.includes(\"fish\")", 52L),
        Arguments.of(A + ".names.size() == 2", 6L),
        Arguments.of(A + ".names.all(x, x != \"\")", 5L + 4 * 64),
        Arguments.of(A + ".names.all(x, x.isGreaterThan(semver(\"0.0.1\")))", 5L + 6 * 64),
        Arguments.of("1 in " + A + ".names", 68L),
        Arguments.of(A + ".name.isGreaterThan(semver(\"0.0.1\"))", 6L),
        Arguments.of(
            A + ".name.isGreaterThan(semver(\"v0.0.1\", true)) && isSemver(\"v1.0.0\", true)", 7L),
        Arguments.of(A + ".name.exists(x, x.isGreaterThan(semver(\"0.0.1\")))", 5L + 7 * 64),
        Arguments.of(
            "device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))", 6L),
        Arguments.of(
            "\"name\" in device.capacity[\"dra.example.com\"] &&"
                + " device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))",
            10L),
        Arguments.of(
            "!(\"name\" in device.capacity[\"dra.example.com\"]) ||"
                + " device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))",
            11L),
        Arguments.of(
            "device.capacity[\"dra.example.com\"].quantity.isGreaterThan(quantity(\"1Ki\")) &&\n"
                + A
                + ".bool &&\n"
                + A
                + ".int > 0 &&\n"
                + A
                + ".string == \"fish\" &&\n"
                + A
                + ".version.isGreaterThan(semver(\"0.0.1\")) &&\n"
                + "device.capacity[\"dra.example.com\"][\"quantity\"].isGreaterThan(quantity(\"1Ki\")) &&\n"
                + A
                + "[\"bool\"] &&\n"
                + A
                + "[\"int\"] > 0 &&\n"
                + A
                + "[\"string\"] == \"fish\" &&\n"
                + A
                + "[\"version\"].isGreaterThan(semver(\"0.0.1\"))",
            52L),
        Arguments.of(A + ".a && " + A + ".b && " + A + ".c", 12L),
        Arguments.of("device.attributes.exists_one(x, x == \"dra.example.com\")", 164L),
        Arguments.of(A + ".exists_one(x, x == \"services\")", 133L),
        Arguments.of(A + ".services.split(\"example\").size() >= 2", 19L),
        Arguments.of(A + ".services.matches(\"[^a]?sym\")", 18L),
        Arguments.of("device.capacity.exists_one(x, x == \"dra.example.com\")", 164L),
        Arguments.of("device.capacity[\"dra.example.com\"].exists_one(x, x == \"memory\")", 133L),
        Arguments.of(CostTest.EXPENSIVE, 85555551L),
        Arguments.of("device.allowMultipleAllocations == true", 3L));
  }

  @ParameterizedTest(name = "{1}: {0}")
  @MethodSource("cases")
  void matchesUpstream(String expression, long expected) {
    CompilationResult result = COMPILER.compile(expression);
    assertThat(result.error()).isEmpty();
    assertThat(result.maxCost()).isEqualTo(expected);
  }
}
