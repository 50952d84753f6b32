package io.jdra.exampledriver.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PluginsTest {
  @Test
  void parsesRepeatedAndCommaSeparatedValues() {
    assertThat(Plugins.parse(List.of("BindingConditions", " , BindingConditions ")))
        .containsExactly("BindingConditions", "BindingConditions");
    assertThat(Plugins.parse(List.of())).isEmpty();
  }

  @Test
  void unknownPluginNamesTheAvailableOnes() {
    assertThatThrownBy(() -> Plugins.parse(List.of("BindingConditions,Foo")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown plugin \"Foo\" (available: BindingConditions)");
  }

  @Test
  void createsPluginsForTheDriver() {
    assertThat(Plugins.create(List.of("BindingConditions"), "gpu.example.com"))
        .singleElement()
        .extracting(Plugin::name)
        .isEqualTo("BindingConditions");
  }
}
