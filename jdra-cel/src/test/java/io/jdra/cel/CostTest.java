package io.jdra.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Cost bombs: rejected at compile time, or stopped at run time with a clear error. */
class CostTest {
  /** Seven nested all() over ten-element lists (from upstream's validation tests). */
  static final String EXPENSIVE =
      "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4,"
          + " 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6,"
          + " 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7,"
          + " 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))";

  /** Each binding concatenates the previous string ten times: 10^k characters at level k. */
  static final String STRING_BOMB = stringBomb(9);

  /** Nested comprehensions over a list whose size is only known at run time. */
  static final String LIST_BOMB =
      "cel.bind(l, lists.range(100), l.all(a, l.all(b, l.all(c, l.all(d, a + b + c + d >= 0)))))";

  static String stringBomb(int levels) {
    StringBuilder b = new StringBuilder();
    String prev = "'0123456789'";
    for (int i = 0; i < levels; i++) {
      String v = "s" + i;
      b.append("cel.bind(").append(v).append(", ").append(prev).append(", ");
      prev = String.join(" + ", java.util.Collections.nCopies(10, v));
    }
    b.append("size(").append(prev).append(") > 0");
    b.append(")".repeat(levels));
    return b.toString();
  }

  static Stream<String> bombs() {
    return Stream.of(EXPENSIVE, STRING_BOMB, LIST_BOMB);
  }

  @ParameterizedTest
  @MethodSource("bombs")
  void rejectedAtCompileTime(String expression) {
    CompilationResult result =
        DeviceSelectorCompiler.create(CompilerOptions.defaults()).compile(expression);
    CelCompileError error = result.error().orElseThrow();
    assertThat(error.kind()).isEqualTo(CelCompileError.Kind.TOO_COMPLEX);
    assertThat(error.detail()).isEqualTo("too complex, exceeds cost limit");
    assertThat(result.maxCost()).isGreaterThan(CompilerOptions.DEFAULT_COST_LIMIT);
  }

  @ParameterizedTest
  @MethodSource("bombs")
  void stoppedAtRunTime(String expression) {
    CompiledSelector selector =
        DeviceSelectorCompiler.create(CompilerOptions.storedExpressions())
            .compile(expression)
            .orElseThrow();
    assertThat(((SelectorProgram) selector).tracksCost()).isTrue();
    assertThatThrownBy(() -> selector.matches(DeviceInput.builder("d").build()))
        .isInstanceOf(CelEvaluationException.class)
        .hasMessage("operation cancelled: actual cost limit exceeded");
  }

  @Test
  void cheapExpressionsAreNotTracked() {
    CompiledSelector selector =
        DeviceSelectorCompiler.create(CompilerOptions.defaults())
            .compile("device.driver == 'a'")
            .orElseThrow();
    assertThat(((SelectorProgram) selector).tracksCost()).isFalse();
  }

  @Test
  void trackedExpressionUnderTheLimitEvaluates() throws Exception {
    // A low limit forces tracking; this device's data keeps the actual cost below it.
    CompilerOptions options =
        CompilerOptions.defaults().withCostLimit(100).withRejectTooComplex(false);
    CompiledSelector selector =
        DeviceSelectorCompiler.create(options)
            .compile("device.attributes['d'].exists(k, k == 'model')")
            .orElseThrow();
    assertThat(selector.maxCost()).isGreaterThan(100);
    assertThat(((SelectorProgram) selector).tracksCost()).isTrue();
    assertThat(selector.matches(DeviceInput.builder("d").attribute("model", "a").build())).isTrue();
  }

  @Test
  void customLimitStopsEarlier() {
    CompilerOptions options =
        CompilerOptions.defaults().withCostLimit(50).withRejectTooComplex(false);
    CompiledSelector selector =
        DeviceSelectorCompiler.create(options)
            .compile("lists.range(1000).all(i, i >= 0)")
            .orElseThrow();
    assertThatThrownBy(() -> selector.matches(DeviceInput.builder("d").build()))
        .hasMessage("operation cancelled: actual cost limit exceeded");
  }

  @Test
  void hugeRangeIsRefusedBeforeAllocating() {
    CompiledSelector selector =
        DeviceSelectorCompiler.create(CompilerOptions.defaults())
            .compile("lists.range(2000000000).size() > 0")
            .orElseThrow();
    assertThatThrownBy(() -> selector.matches(DeviceInput.builder("d").build()))
        .hasMessage("operation cancelled: actual cost limit exceeded");
  }

  @Test
  void estimateAtLimitIsAccepted() {
    CompilationResult result =
        DeviceSelectorCompiler.create(CompilerOptions.defaults().withCostLimit(4))
            .compile("device.driver == \"dra.example.com\"");
    assertThat(result.maxCost()).isEqualTo(4);
    assertThat(result.isOk()).isTrue();
    assertThat(
            DeviceSelectorCompiler.create(CompilerOptions.defaults().withCostLimit(3))
                .compile("device.driver == \"dra.example.com\"")
                .error())
        .isPresent();
  }
}
