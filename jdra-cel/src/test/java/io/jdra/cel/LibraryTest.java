package io.jdra.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every library function selectors can use, with upstream names and semantics. Each expression must
 * evaluate to true; error cases name the upstream message.
 */
class LibraryTest {
  private static final DeviceSelectorCompiler COMPILER =
      DeviceSelectorCompiler.create(CompilerOptions.storedExpressions());
  private static final DeviceInput DEVICE =
      DeviceInput.builder("dra.example.com")
          .attribute("model", "A100-SXM4-80GB")
          .attribute("cores", 108L)
          .attribute("ids", java.util.List.of(3L, 1L, 2L))
          .version("driverVersion", "1.2.3-beta.1+build.7")
          .capacity("memory", "80Gi")
          .build();

  static Stream<Arguments> trueExpressions() {
    return Stream.of(
        // quantity
        t("quantity", "quantity('12Mi') == quantity('12582912')"),
        t("quantity equality across formats", "quantity('200M') == quantity('0.2G')"),
        t("isQuantity", "isQuantity('20Mi') && !isQuantity('20Mo') && !isQuantity('10Mm')"),
        t("compareTo", "quantity('50M').compareTo(quantity('50Mi')) == -1"),
        t("compareTo equal", "quantity('200M').compareTo(quantity('0.2G')) == 0"),
        t("isGreaterThan", "quantity('50Mi').isGreaterThan(quantity('50M'))"),
        t("isLessThan", "quantity('50M').isLessThan(quantity('100M'))"),
        t("add", "quantity('50k').add(quantity('20')) == quantity('50.02k')"),
        t("add int", "quantity('50k').add(20).isLessThan(quantity('50020.1'))"),
        t("sub", "quantity('50k').sub(quantity('20')) == quantity('49.98k')"),
        t("sub int", "quantity('50k').sub(20) == quantity('49980')"),
        t("asInteger", "quantity('50k').add(20).sub(quantity('100k')).asInteger() == -49980"),
        t("asApproximateFloat", "quantity('1.5').asApproximateFloat() == 1.5"),
        t("sign", "sign(quantity('-5')) == -1 && sign(quantity('0')) == 0"),
        t(
            "isInteger",
            "quantity('50').isInteger() && !quantity('9999999999999999999999G').isInteger()"),
        t("capacity", "device.capacity['dra.example.com'].memory.compareTo(quantity('40Gi')) >= 0"),
        // semver
        t("semver", "semver('1.2.3') == semver('1.2.3')"),
        t("semver build ignored", "semver('1.2.3+a') == semver('1.2.3+b')"),
        t("semver normalize", "semver('v01.01', true) == semver('1.1.0')"),
        t(
            "isSemver",
            "isSemver('1.2.3-beta.1+build.1') && !isSemver('v1.0.0') && !isSemver('1.1')"),
        t(
            "isSemver normalize",
            "isSemver('v1.0.0', true) && isSemver('1', true) && !isSemver('', true)"),
        t(
            "major minor patch",
            "semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3"),
        t("semver compareTo", "semver('1.0.0').compareTo(semver('1.2.3')) == -1"),
        t("semver isGreaterThan", "semver('1.2.3').isGreaterThan(semver('1.0.0'))"),
        t("semver isLessThan", "semver('1.0.0-alpha').isLessThan(semver('1.0.0'))"),
        t("prerelease order", "semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))"),
        t("version attribute", "device.attributes['dra.example.com'].driverVersion.major() == 1"),
        // strings extension
        t("lowerAscii", "'TacoCat'.lowerAscii() == 'tacocat'"),
        t("upperAscii", "'TacoCat'.upperAscii() == 'TACOCAT'"),
        t("replace", "'hello hello'.replace('he', 'we') == 'wello wello'"),
        t("replace n", "'hello hello'.replace('he', 'we', 1) == 'wello hello'"),
        t("split", "'a,b,c'.split(',') == ['a', 'b', 'c']"),
        t("split n", "'a,b,c'.split(',', 2) == ['a', 'b,c']"),
        t("join", "['a', 'b'].join('-') == 'a-b' && ['a', 'b'].join() == 'ab'"),
        t("trim", "'  x \\t'.trim() == 'x'"),
        t("indexOf", "'hello mellow'.indexOf('ello') == 1 && 'hello'.indexOf('l', 3) == 3"),
        t("lastIndexOf", "'hello mellow'.lastIndexOf('ello') == 7"),
        t("substring", "'tacocat'.substring(4) == 'cat' && 'tacocat'.substring(0, 4) == 'taco'"),
        t("charAt", "'hello'.charAt(4) == 'o' && 'hello'.charAt(5) == ''"),
        t("format %s %d", "'%s has %d cores'.format([dyn('gpu'), 108]) == 'gpu has 108 cores'"),
        t("format %.2f", "'%.2f'.format([1.2345]) == '1.23' && '%f'.format([1.0]) == '1.000000'"),
        t("format %x %o %b", "'%x %X %o %b'.format([255, 255, 8, 5]) == 'ff FF 10 101'"),
        t("format list", "'%s'.format([[dyn(1), 'a']]) == '[1, \"a\"]'"),
        t("format %%", "'100%%'.format([]) == '100%'"),
        t("format mixed list literal (list(dyn))", "\"%s-%d\".format([\"gpu\", 3]) == \"gpu-3\""),
        t(
            "format nested mixed literals",
            "'%s %s'.format([[1, 'a'], {'k': 1, 'l': 'v'}]) == '[1, \"a\"] {\"k\": 1, \"l\": \"v\"}'"),
        t("optional element of the same type", "[?optional.of(1), 2].size() == 2"),
        t("quote", "strings.quote('a\"b') == '\"a\\\\\"b\"'"),
        t("reverse", "'abc'.reverse() == 'cba'"),
        t(
            "product name regex",
            "device.attributes['dra.example.com'].model.lowerAscii().matches('^.*a100.*$')"),
        // regex
        t("matches", "'hello'.matches('^h.*o$') && matches('abc', 'b')"),
        t("find", "'abc 123'.find('[0-9]+') == '123' && 'abc'.find('[0-9]+') == ''"),
        t("findAll", "'123 abc 456'.findAll('[0-9]+') == ['123', '456']"),
        t("findAll n", "'123 abc 456'.findAll('[0-9]+', 1) == ['123']"),
        // sets
        t("sets.contains", "sets.contains([1, 2, 3], [1, 2]) && !sets.contains([1], [2])"),
        t("sets.equivalent", "sets.equivalent([1, 2, 2], [2, 1])"),
        t("sets.intersects", "sets.intersects([1, 2], [2, 3]) && !sets.intersects([1], [2])"),
        // Kubernetes lists
        t("isSorted", "[1, 2, 3].isSorted() && !['b', 'a'].isSorted()"),
        t("sum", "[1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0 && [].sum() == 0"),
        t("min max", "[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3 && ['b', 'a'].max() == 'b'"),
        t("list indexOf", "[1, 2, 2, 3].indexOf(2) == 1 && [1, 2].indexOf(5) == -1"),
        t("list lastIndexOf", "[1, 2, 2, 3].lastIndexOf(2) == 2"),
        t("list attribute", "device.attributes['dra.example.com'].ids.sum() == 6"),
        // CEL lists extension
        t("slice", "[1, 2, 3, 4].slice(1, 3) == [2, 3]"),
        t("flatten", "[[1], [2, 3]].flatten() == [1, 2, 3] && [[[1]], [[2]]].flatten(2) == [1, 2]"),
        t("distinct", "[1, 2, 2, 1].distinct() == [1, 2]"),
        t("range", "lists.range(3) == [0, 1, 2]"),
        t("list reverse", "[1, 2, 3].reverse() == [3, 2, 1]"),
        t("sort", "[3, 1, 2].sort() == [1, 2, 3]"),
        t("sortBy", "[3, 1, 2].sortBy(x, x) == [1, 2, 3]"),
        t("sortBy key expression", "['a', 'bb', 'ccc'].sortBy(x, -size(x)) == ['ccc', 'bb', 'a']"),
        t("sortBy empty", "[].sortBy(x, x) == []"),
        t("sortBy ties keep order", "['b1', 'a', 'b2'].sortBy(x, size(x)) == ['a', 'b1', 'b2']"),
        t(
            "sortBy on an attribute",
            "device.attributes['dra.example.com'].ids.sortBy(i, -i) == [3, 2, 1]"),
        t("sortBy chained", "[2, 1, 3].sortBy(x, x).sortBy(y, -y) == [3, 2, 1]"),
        t("sortBy of maps", "[{'s': 2}, {'s': 1}].sortBy(e, e.s).map(e, e.s) == [1, 2]"),
        // bind, optional, comprehensions, numbers
        t(
            "cel.bind",
            "cel.bind(d, device.attributes['dra.example.com'], d.cores > 100 && d.model != '')"),
        t("optional field", "device.attributes['dra.example.com'].?missing.orValue(7) == 7"),
        t("optional present", "device.attributes['dra.example.com'].?cores.hasValue()"),
        t("optional.of", "optional.of(1).value() == 1 && !optional.none().hasValue()"),
        t("optional index", "[1, 2][?5].orValue(0) == 0"),
        t("two-var all", "[10, 20].all(i, v, v == (i + 1) * 10)"),
        t("two-var exists on map", "{'a': 1}.exists(k, v, k == 'a' && v == 1)"),
        t("existsOne", "[1, 2, 3].existsOne(i, v, v > 2)"),
        t("transformList", "[1, 2].transformList(i, v, v * 2) == [2, 4]"),
        t("transformMap", "{'a': 1}.transformMap(k, v, v + 1) == {'a': 2}"),
        t("macros", "[1, 2, 3].map(x, x * 2).filter(x, x > 2).exists_one(x, x == 4)"),
        t("cross-type numeric", "1 < 1.5 && 2u > 1 && dyn(1) == 1.0 && 3.0 >= 3u"),
        t("int attribute vs double", "device.attributes['dra.example.com'].cores > 100.5"),
        t("includes list", "device.attributes['dra.example.com'].ids.includes(2)"),
        t(
            "includes scalar",
            "device.attributes['dra.example.com'].model.includes('A100-SXM4-80GB')"),
        t(
            "string functions",
            "'abc'.contains('b') && 'abc'.startsWith('a') && 'abc'.endsWith('c') && size('abc') == 3"));
  }

  static Arguments t(String name, String expression) {
    return Arguments.of(name, expression);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("trueExpressions")
  void evaluatesToTrue(String name, String expression) throws Exception {
    CompilationResult result = COMPILER.compile(expression);
    assertThat(result.error()).as(expression).isEmpty();
    assertThat(result.orElseThrow().matches(DEVICE)).as(expression).isTrue();
  }

  static Stream<Arguments> runtimeErrors() {
    return Stream.of(
        t("quantity('10Mo')", "quantities must match the regular expression"),
        t("quantity('10Mm')", "unable to parse quantity's suffix"),
        t("quantity('9999999999999999999999G').asInteger()", "cannot convert value to integer"),
        t("semver('v1.0')", "No Major.Minor.Patch elements found"),
        t("semver('1.01.0')", "Minor number must not contain leading zeroes \"01\""),
        t("semver('1.0.0-')", "Prerelease is empty"),
        t("[].min()", "min called on empty list"),
        t("'x'.matches('(')", "error parsing regexp: missing closing ): `(`"),
        t("[].max()", "max called on empty list"),
        t("'x'.find('(')", "Illegal regex: error parsing regexp: missing closing ): `(`"),
        t(
            "'%d-%s'.format(['gpu', 3])",
            "error during formatting: decimal clause can only be used on integers, was given string"),
        t(
            "'%d'.format(['a'])",
            "error during formatting: decimal clause can only be used on integers, was given string"),
        t("'%d %d'.format([1])", "index 1 out of range"),
        t(
            "'%x'.format([1.5])",
            "error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double"),
        t(
            "'%b'.format(['a'])",
            "error during formatting: only integers and bools can be formatted as binary, was given string"),
        t("'%'.format([1])", "unexpected end of string"),
        t(
            "'%z'.format([1])",
            "could not parse formatting clause: unrecognized formatting clause \"z\""),
        t("[9223372036854775807, 1].sum()", "integer overflow"),
        t("[1][3]", "index '3' out of range in list size '1'"),
        t("[dyn(1), dyn('a')].sortBy(x, x)", "list elements must have the same type"),
        t("{'a': 1}['b']", "no such key: b"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runtimeErrors")
  void failsAtRunTime(String expression, String message) {
    CompiledSelector selector = COMPILER.compile(expression + " == " + expression).orElseThrow();
    assertThatThrownBy(() -> selector.matches(DEVICE))
        .isInstanceOf(CelEvaluationException.class)
        .hasMessageContaining(message);
  }
}
