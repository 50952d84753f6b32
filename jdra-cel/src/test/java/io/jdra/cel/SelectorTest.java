package io.jdra.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The environment and evaluation, table-driven after upstream's compile_test.go cases. */
class SelectorTest {
  private static final String D = "dra.example.com";

  record Case(
      String name,
      String expression,
      DeviceInput device,
      CompilerOptions options,
      Boolean match,
      String compileError,
      String runtimeError) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case match(String name, String expr, DeviceInput device, boolean match) {
    return new Case(name, expr, device, CompilerOptions.storedExpressions(), match, null, null);
  }

  static Case compileError(String name, String expr, CompilerOptions o, String error) {
    return new Case(name, expr, dev().build(), o, null, error, null);
  }

  static Case runtimeError(String name, String expr, DeviceInput device, String error) {
    return new Case(name, expr, device, CompilerOptions.storedExpressions(), null, null, error);
  }

  static DeviceInput.Builder dev() {
    return DeviceInput.builder(D);
  }

  static Stream<Case> cases() {
    CompilerOptions stored = CompilerOptions.storedExpressions();
    return Stream.of(
        match("true", "true", dev().build(), true),
        match("false", "false", dev().build(), false),
        compileError("syntax error", "?!", stored, "Syntax error"),
        compileError(
            "int result", "1", stored, "must evaluate to bool or the unknown type, not int"),
        compileError(
            "string result",
            "device.driver",
            stored,
            "must evaluate to bool or the unknown type, not string"),
        runtimeError(
            "unknown domain, unknown attribute (select)",
            "device.attributes[\"no-such-domain\"].noSuchAttr.isGreaterThan(quantity(\"0\"))",
            dev().build(),
            "no such key: noSuchAttr"),
        runtimeError(
            "unknown domain, unknown attribute (index)",
            "device.attributes[\"no-such-domain\"][\"noSuchAttr\"].isGreaterThan(quantity(\"0\"))",
            dev().build(),
            "no such key: noSuchAttr"),
        runtimeError(
            "known domain, unknown attribute",
            "device.attributes[\"dra.example.com\"].model == \"a\"",
            dev().attribute("other", "x").build(),
            "no such key: model"),
        match(
            "unknown domain not in attributes",
            "\"no-such-domain\" in device.attributes",
            dev().build(),
            false),
        match(
            "unknown domain is empty",
            "device.attributes[\"no-such-domain\"].size() == 0",
            dev().build(),
            true),
        match(
            "domain in attributes",
            "\"dra.example.com\" in device.attributes",
            dev().attribute("dra.example.com/something", true).build(),
            true),
        match("empty driver", "device.driver == \"\"", DeviceInput.builder("").build(), true),
        match("driver", "device.driver == \"dra.example.com\"", dev().build(), true),
        match(
            "unqualified name in driver domain",
            "device.attributes[\"dra.example.com\"].name",
            dev().attribute("name", true).build(),
            true),
        match(
            "unqualified name, map lookup",
            "device.attributes[\"dra.example.com\"][\"name\"]",
            dev().attribute("name", true).build(),
            true),
        match(
            "qualified name of the driver's domain",
            "device.attributes[\"dra.example.com\"].name",
            dev().attribute("dra.example.com/name", true).build(),
            true),
        match(
            "bind",
            "cel.bind(dra, device.attributes[\"dra.example.com\"], dra.name)",
            dev().attribute("name", true).build(),
            true),
        match(
            "other domain",
            "device.attributes[\"other.example.com\"].name",
            dev().attribute("other.example.com/name", true).build(),
            true),
        match(
            "int",
            "device.attributes[\"dra.example.com\"].name > 0",
            dev().attribute("name", 1L).build(),
            true),
        match(
            "int vs double",
            "device.attributes[\"dra.example.com\"].name > 0.5",
            dev().attribute("name", 1L).build(),
            true),
        match(
            "string",
            "device.attributes[\"dra.example.com\"].name == \"fish\"",
            dev().attribute("name", "fish").build(),
            true),
        match(
            "version",
            "device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"0.0.1\"))",
            dev().version("name", "1.0.0").build(),
            true),
        match(
            "version relaxed",
            "device.attributes[\"dra.example.com\"].name.isGreaterThan(semver(\"v0.0.1\", true)) && isSemver(\"v1.0.0\", true)",
            dev().version("name", "1.0.0").build(),
            true),
        match(
            "quantity",
            "device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))",
            dev().capacity("name", "1Mi").build(),
            true),
        match(
            "check positive",
            "\"name\" in device.capacity[\"dra.example.com\"] && device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))",
            dev().capacity("name", "1Mi").build(),
            true),
        match(
            "check negative",
            "!(\"name\" in device.capacity[\"dra.example.com\"]) || device.capacity[\"dra.example.com\"].name.isGreaterThan(quantity(\"1Ki\"))",
            dev().build(),
            true),
        match(
            "has() on attribute",
            "has(device.attributes[\"dra.example.com\"].name) && !has(device.attributes[\"dra.example.com\"].other)",
            dev().attribute("name", 1L).build(),
            true),
        match(
            "optional chaining",
            "device.attributes[\"dra.example.com\"].?model.orValue(\"none\") == \"none\"",
            dev().build(),
            true),
        match(
            "exists_one over domains",
            "device.attributes.exists_one(x, x == \"dra.example.com\")",
            dev().attribute("services", "x").build(),
            true),
        match(
            "exists_one over ids",
            "device.attributes[\"dra.example.com\"].exists_one(x, x == \"services\")",
            dev().attribute("services", "x").build(),
            true),
        match(
            "split attribute",
            "device.attributes[\"dra.example.com\"].services.split(\"example\").size() >= 2",
            dev().attribute("services", "some_example_value").build(),
            true),
        match(
            "regex attribute",
            "device.attributes[\"dra.example.com\"].services.matches(\"[^a]?sym\")",
            dev().attribute("services", "asymetric").build(),
            true),
        match(
            "list attribute size",
            "device.attributes[\"dra.example.com\"].names.size() == 2",
            dev().attribute("names", List.of("fish", "bird")).build(),
            true),
        match(
            "list attribute macro",
            "device.attributes[\"dra.example.com\"].names.exists(x, x > 1)",
            dev().attribute("names", List.of(1L, 2L)).build(),
            true),
        match(
            "includes on list",
            "device.attributes[\"dra.example.com\"].name.includes(\"fish\")",
            dev().attribute("name", List.of("fish", "bird")).build(),
            true),
        match(
            "includes on scalar",
            "device.attributes[\"dra.example.com\"].name.includes(1)",
            dev().attribute("name", 2L).build(),
            false),
        runtimeError(
            "includes on too long list",
            "device.attributes[\"dra.example.com\"].name.includes(\"value-49\")",
            dev()
                .attribute(
                    "name",
                    java.util.stream.IntStream.range(0, 50).mapToObj(i -> "value-" + i).toList())
                .build(),
            "'includes' function cannot be applied to lists longer than 48 values"),
        runtimeError(
            "list result",
            "device.attributes[\"dra.example.com\"].names",
            dev().attribute("names", List.of("fish", "bird")).build(),
            "CEL result of type list could not be converted to bool"),
        runtimeError(
            "int result at run time",
            "device.attributes[\"dra.example.com\"].n",
            dev().attribute("n", 1L).build(),
            "CEL result of type int could not be converted to bool"),
        runtimeError(
            "macro on int",
            "device.attributes[\"dra.example.com\"].name.exists(x, x > 0)",
            dev().attribute("name", 1L).build(),
            "got 'types.Int', expected iterable type"),
        runtimeError(
            "macro on string",
            "device.attributes[\"dra.example.com\"].name.exists(x, x == \"fish\")",
            dev().attribute("name", "fish").build(),
            "got 'types.String', expected iterable type"),
        runtimeError(
            "macro on bool",
            "device.attributes[\"dra.example.com\"].name.exists(x, x == true)",
            dev().attribute("name", true).build(),
            "got 'types.Bool', expected iterable type"),
        runtimeError(
            "macro on version",
            "device.attributes[\"dra.example.com\"].name.exists(x, x.isGreaterThan(semver(\"0.0.1\")))",
            dev().version("name", "1.0.0").build(),
            "got 'cel.Semver', expected iterable type"),
        runtimeError(
            "wrong attribute type for a function",
            "device.attributes[\"dra.example.com\"].name.isGreaterThan(quantity(\"1\"))",
            dev().attribute("name", "x").build(),
            "no such overload: isGreaterThan(string, kubernetes.Quantity)"),
        runtimeError(
            "division by zero",
            "device.attributes[\"dra.example.com\"].n / 0 == 1",
            dev().attribute("n", 1L).build(),
            "division by zero"),
        runtimeError(
            "integer overflow",
            "device.attributes[\"dra.example.com\"].n + 9223372036854775807 > 0",
            dev().attribute("n", 1L).build(),
            "integer overflow"),
        compileError(
            "includes without DRAListTypeAttributes",
            "device.attributes[\"dra.example.com\"].attr.includes(\"fish\")",
            CompilerOptions.defaults(),
            "undeclared reference to 'includes'"),
        match(
            "allowMultipleAllocations",
            "device.allowMultipleAllocations == true",
            dev().allowMultipleAllocations(true).build(),
            true),
        match(
            "allowMultipleAllocations default",
            "device.allowMultipleAllocations == false",
            dev().build(),
            true),
        compileError(
            "allowMultipleAllocations without DRAConsumableCapacity",
            "device.allowMultipleAllocations == false",
            CompilerOptions.defaults(),
            "undefined field 'allowMultipleAllocations'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void selector(Case c) throws Exception {
    CompilationResult result = DeviceSelectorCompiler.create(c.options()).compile(c.expression());
    if (c.compileError() != null) {
      assertThat(result.error()).isPresent();
      assertThat(result.error().get().detail()).contains(c.compileError());
      return;
    }
    assertThat(result.error()).isEmpty();
    CompiledSelector selector = result.orElseThrow();
    if (c.runtimeError() != null) {
      assertThatThrownBy(() -> selector.matches(c.device()))
          .isInstanceOf(CelEvaluationException.class)
          .hasMessageContaining(c.runtimeError());
      return;
    }
    assertThat(selector.matches(c.device())).isEqualTo(c.match());
  }
}
