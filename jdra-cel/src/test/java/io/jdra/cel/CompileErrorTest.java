package io.jdra.cel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Compile errors: kinds, exact cel-go-like text with positions and caret lines. */
class CompileErrorTest {
  private static final DeviceSelectorCompiler COMPILER =
      DeviceSelectorCompiler.create(CompilerOptions.defaults());

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "undeclared reference",
            "device.driver == x",
            "compilation failed: ERROR: <input>:1:18: undeclared reference to 'x' (in container '')\n"
                + " | device.driver == x\n"
                + " | .................^",
            1,
            18),
        Arguments.of(
            "undeclared reference at 1:8",
            "true && x",
            "compilation failed: ERROR: <input>:1:9: undeclared reference to 'x' (in container '')\n"
                + " | true && x\n"
                + " | ........^",
            1,
            9),
        Arguments.of(
            "syntax error",
            "1 + ",
            "compilation failed: ERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting"
                + " {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT,"
                + " NUM_UINT, STRING, BYTES, IDENTIFIER}\n"
                + " | 1 + \n"
                + " | ....^",
            1,
            5),
        Arguments.of(
            "second line",
            "device.driver == \"a\" &&\n  device.nope",
            "compilation failed: ERROR: <input>:2:9: undefined field 'nope'\n"
                + " |   device.nope\n"
                + " | ........^",
            2,
            9),
        Arguments.of(
            "no matching overload",
            "isSemver([1, 2, 3])",
            "compilation failed: ERROR: <input>:1:9: found no matching overload for 'isSemver' applied"
                + " to '(list(int))'",
            1,
            9),
        Arguments.of(
            "equality across numeric types needs dyn (as cel-go)",
            "1 == 1.0",
            "compilation failed: ERROR: <input>:1:3: found no matching overload for '_==_' applied"
                + " to '(int, double)'",
            1,
            3),
        Arguments.of(
            "mixed list literal (homogeneous aggregate literals, as Kubernetes)",
            "[1, 'a'].size() > 0",
            "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'",
            1,
            5),
        Arguments.of(
            "mixed map values are reported at the value",
            "{'a': 1, 'b': 'x'}.size() > 0",
            "compilation failed: ERROR: <input>:1:15: expected type 'int' but found 'string'",
            1,
            15),
        Arguments.of(
            "mixed map keys are reported at the key",
            "{'a': 1, 2: 1}.size() > 0",
            "compilation failed: ERROR: <input>:1:10: expected type 'string' but found 'int'",
            1,
            10),
        Arguments.of(
            "nested lists of different element types",
            "[[1], ['a']].size() > 0",
            "compilation failed: ERROR: <input>:1:7: expected type 'list(int)' but found"
                + " 'list(string)'",
            1,
            7),
        Arguments.of(
            "dyn does not make a literal homogeneous (as cel-go)",
            "[dyn(1), 'a'].size() > 0",
            "compilation failed: ERROR: <input>:1:10: expected type 'dyn' but found 'string'",
            1,
            10),
        Arguments.of(
            "optional elements count with their value type",
            "[?optional.of('a'), 2].size() > 0",
            "compilation failed: ERROR: <input>:1:21: expected type 'string' but found 'int'",
            1,
            21),
        Arguments.of(
            "sortBy binding must be an identifier (reported at it, as cel-go)",
            "[1, 2].sortBy(1, 1) == [1, 2]",
            "compilation failed: ERROR: <input>:1:15: argument is not an identifier",
            1,
            15),
        Arguments.of(
            "sortBy on a literal that is no list",
            "1.sortBy(x, x) == [1]",
            "compilation failed: ERROR: <input>:1:1: sortBy can only be applied to a list,"
                + " identifier, comprehension, call or select expression",
            1,
            1),
        Arguments.of(
            "sortBy keys must be comparable",
            "[1, 2].sortBy(x, [x]) == [1, 2]",
            "compilation failed: ERROR: <input>:1:14: found no matching overload for"
                + " '@sortByAssociatedKeys' applied to 'list(int).(list(list(int)))'",
            1,
            14),
        Arguments.of(
            "a mixed literal outside format's arguments",
            "'%s'.format([1]) == [1, 'a'][1]",
            "compilation failed: ERROR: <input>:1:25: expected type 'int' but found 'string'",
            1,
            25));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void formatsLikeCelGo(String name, String expr, String expected, int line, int column) {
    CelCompileError error = COMPILER.compile(expr).error().orElseThrow();
    assertThat(error.kind()).isEqualTo(CelCompileError.Kind.INVALID);
    assertThat(error.detail()).startsWith(expected);
    assertThat(error.issues()).isNotEmpty();
    assertThat(error.issues().get(0).line()).isEqualTo(line);
    assertThat(error.issues().get(0).column()).isEqualTo(column);
  }

  static Stream<Arguments> resultTypes() {
    return Stream.of(
        Arguments.of("1", "int"),
        Arguments.of("'a'", "string"),
        Arguments.of("[true]", "list(bool)"),
        Arguments.of("{'a': 1}", "map(string, int)"),
        Arguments.of("device.capacity['x'].mem", "kubernetes.Quantity"),
        Arguments.of("semver('1.0.0')", "kubernetes.Semver"),
        Arguments.of("1.5", "double"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("resultTypes")
  void resultMustBeBool(String expr, String type) {
    CelCompileError error = COMPILER.compile(expr).error().orElseThrow();
    assertThat(error.kind()).isEqualTo(CelCompileError.Kind.INVALID);
    assertThat(error.detail()).isEqualTo("must evaluate to bool or the unknown type, not " + type);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dynResults")
  void dynResultCompiles(String expr) {
    assertThat(COMPILER.compile(expr).isOk()).isTrue();
  }

  static Stream<String> dynResults() {
    return Stream.of("device.attributes['x'].y", "true", "device.attributes['x']['y']");
  }

  @org.junit.jupiter.api.Test
  void tooLong() {
    String ok = "'" + "x".repeat(CompilerOptions.MAX_EXPRESSION_LENGTH - 8) + "' != ''";
    assertThat(ok.length()).isEqualTo(CompilerOptions.MAX_EXPRESSION_LENGTH);
    assertThat(COMPILER.compile(ok).isOk()).isTrue();
    CelCompileError error = COMPILER.compile(ok + " ").error().orElseThrow();
    assertThat(error.kind()).isEqualTo(CelCompileError.Kind.TOO_LONG);
    assertThat(error.detail()).isEqualTo("may not be more than 10240 bytes");
  }
}
