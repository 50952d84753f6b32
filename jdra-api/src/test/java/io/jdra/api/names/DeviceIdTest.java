package io.jdra.api.names;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DeviceIdTest {

  static Stream<Arguments> ids() {
    return Stream.of(
        Arguments.of("gpu.example.com/node-1/gpu-0", "gpu.example.com", "node-1", "gpu-0"),
        Arguments.of("d/p/x", "d", "p", "x"),
        Arguments.of(
            "nic.example.com/rack-1/node-2/eth0", "nic.example.com", "rack-1/node-2", "eth0"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ids")
  void printsAndParses(String text, String driver, String pool, String device) {
    DeviceId id = new DeviceId(driver, pool, device);
    assertThat(id).hasToString(text);
    assertThat(DeviceId.parse(text)).isEqualTo(id);
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("", "device ID \"\": must have the form <driver>/<pool>/<device>"),
        Arguments.of("d/x", "device ID \"d/x\": must have the form <driver>/<pool>/<device>"),
        Arguments.of("d//x", "device ID \"d//x\": driver, pool and device names must not be empty"),
        Arguments.of("/p/x", "device ID \"/p/x\": driver, pool and device names must not be empty"),
        Arguments.of(
            "d/p/", "device ID \"d/p/\": driver, pool and device names must not be empty"));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @MethodSource("invalid")
  void rejectsMalformed(String text, String message) {
    assertThatThrownBy(() -> DeviceId.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void constructorRejectsEmptyParts() {
    assertThatThrownBy(() -> new DeviceId("d", "", "x"))
        .hasMessage("device ID: the pool name is empty");
    assertThatThrownBy(() -> new DeviceId(null, "p", "x")).isInstanceOf(NullPointerException.class);
  }

  @Test
  void ordersByDriverPoolDevice() {
    List<DeviceId> ids =
        new ArrayList<>(
            List.of(
                new DeviceId("b", "p", "x"),
                new DeviceId("a", "q", "a"),
                new DeviceId("a", "p", "y"),
                new DeviceId("a", "p", "x")));
    Collections.sort(ids);
    assertThat(ids)
        .extracting(DeviceId::toString)
        .containsExactly("a/p/x", "a/p/y", "a/q/a", "b/p/x");
  }
}
