package io.jdra.api.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintSelectorBuilder;
import io.jdra.api.names.DeviceId;
import io.jdra.api.resourceclaim.DeviceTaintSelectors.Selector;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DeviceTaintSelectorsTest {
  private static final DeviceId GPU0 = new DeviceId("gpu.example.com", "node-1", "gpu-0");

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("no selector selects nothing", null, false),
        Arguments.of("empty selector selects everything", new Selector(null, null, null), true),
        Arguments.of("same driver", new Selector("gpu.example.com", null, null), true),
        Arguments.of("other driver", new Selector("nic.example.com", null, null), false),
        Arguments.of("same pool", new Selector(null, "node-1", null), true),
        Arguments.of("other pool", new Selector(null, "node-2", null), false),
        Arguments.of("same device", new Selector(null, null, "gpu-0"), true),
        Arguments.of("other device", new Selector(null, null, "gpu-1"), false),
        Arguments.of("all three equal", new Selector("gpu.example.com", "node-1", "gpu-0"), true),
        Arguments.of(
            "one of three differs", new Selector("gpu.example.com", "node-1", "gpu-1"), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matches(String name, Selector selector, boolean want) {
    assertThat(DeviceTaintSelectors.matches(selector, GPU0)).isEqualTo(want);
  }

  @Test
  void readsV1beta2Selectors() {
    assertThat(
            Selector.of(
                (io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintSelector) null))
        .isNull();
    assertThat(Selector.of(new DeviceTaintSelectorBuilder().withPool("p").build()))
        .isEqualTo(new Selector(null, "p", null));
  }

  @Test
  void convertsV1beta2Taints() {
    var taint =
        DeviceTaintSelectors.taint(
            new DeviceTaintBuilder()
                .withKey("k")
                .withValue("v")
                .withEffect("NoExecute")
                .withTimeAdded("2026-01-01T00:00:00Z")
                .build());
    assertThat(taint.getKey()).isEqualTo("k");
    assertThat(taint.getValue()).isEqualTo("v");
    assertThat(taint.getEffect()).isEqualTo("NoExecute");
    assertThat(taint.getTimeAdded()).isEqualTo("2026-01-01T00:00:00Z");
  }
}
