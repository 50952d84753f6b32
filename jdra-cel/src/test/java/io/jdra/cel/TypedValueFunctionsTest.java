package io.jdra.cel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every Quantity and Semver function on every kind of expression that yields those types: literals,
 * results of add and sub, device capacity and version attributes, cel.bind variables, list elements
 * and optional values. A function that works on a literal must work on all of them.
 */
class TypedValueFunctionsTest {
  private static final DeviceSelectorCompiler COMPILER =
      DeviceSelectorCompiler.create(CompilerOptions.storedExpressions());
  private static final DeviceInput DEVICE =
      DeviceInput.builder("dra.example.com").capacity("three", "3").version("v", "1.2.3").build();

  /** Expressions whose value is the quantity 3. */
  private static final List<String> QUANTITIES =
      List.of(
          "quantity('3')",
          "quantity('1').add(quantity('2'))",
          "quantity('1').add(2)",
          "quantity('5').sub(quantity('2'))",
          "quantity('5').sub(2)",
          "quantity('1').add(quantity('1')).add(1)",
          "device.capacity['dra.example.com'].three",
          "cel.bind(q, quantity('1').add(2), q)",
          "[quantity('5').sub(2)][0]",
          "optional.of(quantity('1').add(2)).value()");

  /** Checks that hold for the quantity 3; {@code Q} is replaced by the expression. */
  private static final List<String> QUANTITY_CHECKS =
      List.of(
          "Q == quantity('3')",
          "Q.isGreaterThan(quantity('2'))",
          "Q.isLessThan(quantity('4'))",
          "Q.compareTo(quantity('3')) == 0",
          "Q.add(quantity('1')) == quantity('4')",
          "Q.add(1) == quantity('4')",
          "Q.sub(quantity('1')) == quantity('2')",
          "Q.sub(1) == quantity('2')",
          "Q.asInteger() == 3",
          "Q.isInteger()",
          "Q.asApproximateFloat() == 3.0",
          "sign(Q) == 1",
          "sign(Q.sub(4)) == -1");

  /** Expressions whose value is the version 1.2.3. */
  private static final List<String> SEMVERS =
      List.of(
          "semver('1.2.3')",
          "semver('v1.2.3', true)",
          "device.attributes['dra.example.com'].v",
          "cel.bind(s, semver('1.2.3'), s)",
          "[semver('1.2.3')][0]",
          "optional.of(semver('1.2.3')).value()");

  private static final List<String> SEMVER_CHECKS =
      List.of(
          "S == semver('1.2.3')",
          "S.major() == 1 && S.minor() == 2 && S.patch() == 3",
          "S.compareTo(semver('1.2.4')) == -1",
          "S.isGreaterThan(semver('1.2.2'))",
          "S.isLessThan(semver('2.0.0'))");

  static Stream<Arguments> trueExpressions() {
    List<Arguments> out = new ArrayList<>();
    for (String q : QUANTITIES) {
      for (String check : QUANTITY_CHECKS) {
        out.add(Arguments.of(check.replace("Q", q)));
      }
    }
    for (String s : SEMVERS) {
      for (String check : SEMVER_CHECKS) {
        out.add(Arguments.of(check.replace("S", s)));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("trueExpressions")
  void holds(String expression) throws Exception {
    CompilationResult r = COMPILER.compile(expression);
    assertThat(r.error()).as(expression).isEmpty();
    assertThat(r.orElseThrow().matches(DEVICE)).as(expression).isTrue();
  }

  static Stream<String> quantities() {
    return QUANTITIES.stream();
  }

  /**
   * Upstream declares {@code sign} as a global function only, so {@code q.sign()} does not
   * type-check in cel-go either, whatever expression yields the quantity.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("quantities")
  void signIsGlobalAsUpstream(String quantity) {
    CelCompileError error = COMPILER.compile(quantity + ".sign() == 1").error().orElseThrow();
    assertThat(error.detail())
        .contains("found no matching overload for 'sign' applied to 'kubernetes.Quantity.()'");
  }
}
