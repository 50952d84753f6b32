package io.jdra.allocator;

import static io.jdra.allocator.Fixtures.*;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Attribute values a constraint cannot compare, as upstream treats them: its constraints never fail
 * on a value type (they just do not match), but before evaluating any selector upstream converts
 * every attribute of the device, and an attribute without a value, or with a list value while
 * DRAListTypeAttributes is off, fails the allocation with "unsupported attribute value" (upstream's
 * allocator tests {@code *-with-empty-or-unknown-type}, {@code list-attributes-disabled-*}).
 */
class AttributeValueTypesTest {
  private static final String SELECTOR = "device.driver == '" + DRIVER + "'";
  private static final String UNSUPPORTED =
      "class gpu: selector #0: CEL runtime error: attribute a: unsupported attribute value";

  private static AllocatorFeatures lists(boolean on) {
    return new AllocatorFeatures(true, true, true, true, on, true, true);
  }

  private static DeviceAttribute empty() {
    return new DeviceAttribute();
  }

  private static DeviceAttribute strings(String... values) {
    DeviceAttribute a = new DeviceAttribute();
    a.setStrings(List.of(values));
    return a;
  }

  private static ResourceSlice twoDevices(DeviceAttribute a0, DeviceAttribute a1) {
    return slice("s", device("d0", "a", a0), device("d1", "a", a1));
  }

  static Stream<Arguments> cases() {
    List<Arguments> cs = new ArrayList<>();
    List<Function<String, DeviceConstraint>> kinds = List.of(a -> match(a), a -> distinct(a));
    for (int k = 0; k < 2; k++) {
      String kind = k == 0 ? "matchAttribute" : "distinctAttribute";
      DeviceConstraint constraint = kinds.get(k).apply(DRIVER + "/a");
      for (boolean gate : new boolean[] {true, false}) {
        String where = kind + ", DRAListTypeAttributes " + (gate ? "on" : "off");
        cs.add(
            named(
                where + ": attribute without value, class with selector",
                twoDevices(empty(), empty()),
                constraint,
                gate,
                true,
                UNSUPPORTED));
        cs.add(
            named(
                where + ": attribute without value, no selector evaluated",
                twoDevices(empty(), empty()),
                constraint,
                gate,
                false,
                AllocatorTest.UNSCHEDULABLE));
      }
      cs.add(
          named(
              kind + ", DRAListTypeAttributes off: list attribute, class with selector",
              twoDevices(strings("x", "y"), strings("y", "z")),
              constraint,
              false,
              true,
              UNSUPPORTED));
      cs.add(
          named(
              kind + ", DRAListTypeAttributes off: list attribute, no selector evaluated",
              twoDevices(strings("x", "y"), strings("y", "z")),
              constraint,
              false,
              false,
              AllocatorTest.UNSCHEDULABLE));
    }
    cs.add(
        named(
            "matchAttribute, DRAListTypeAttributes on: lists intersect",
            twoDevices(strings("x", "y"), strings("y", "z")),
            match(DRIVER + "/a"),
            true,
            true,
            null));
    cs.add(
        named(
            "distinctAttribute, DRAListTypeAttributes on: lists overlap",
            twoDevices(strings("x", "y"), strings("y", "z")),
            distinct(DRIVER + "/a"),
            true,
            true,
            AllocatorTest.UNSCHEDULABLE));
    cs.add(
        named(
            "distinctAttribute, DRAListTypeAttributes on: lists disjoint",
            twoDevices(strings("x"), strings("z")),
            distinct(DRIVER + "/a"),
            true,
            true,
            null));
    cs.add(
        named(
            "another attribute without value fails even a constraint-free claim",
            slice("s", device("d0", "a", empty(), "b", "ok"), device("d1", "b", "ok")),
            null,
            true,
            true,
            UNSUPPORTED));
    return cs.stream();
  }

  private static Arguments named(
      String name,
      ResourceSlice slice,
      DeviceConstraint constraint,
      boolean listGate,
      boolean classSelector,
      String error) {
    var claim = claim("c", request("r", constraint == null ? 1 : 2));
    if (constraint != null) {
      claim = constrain(claim, constraint);
    }
    AllocatorTest.Case c =
        AllocatorTest.Case.of(List.of(slice), claim)
            .features(lists(listGate))
            .classes(classSelector ? deviceClass(CLASS, SELECTOR) : deviceClass(CLASS));
    c = error == null ? c.expect(List.of("r=node-1/d0", "r=node-1/d1")) : c.fails(error);
    return Arguments.of(name, c);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void asUpstream(String name, AllocatorTest.Case c) throws Exception {
    AllocatorTest.check(c);
  }
}
