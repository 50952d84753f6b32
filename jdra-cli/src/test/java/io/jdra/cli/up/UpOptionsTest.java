package io.jdra.cli.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdra.api.features.FeatureGates;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class UpOptionsTest {
  record Case(String name, int nodes, int port, List<String> profiles, int devices, String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("defaults", 1, 6443, List.of("gpu"), 8, null),
        new Case("all profiles", 3, 0, List.of("gpu", "net", "cpu"), 4, null),
        new Case("no node", 0, 6443, List.of("gpu"), 8, "--nodes must be between 1 and 1000"),
        new Case("too many nodes", 1001, 6443, List.of("gpu"), 8, "--nodes must be between"),
        new Case("bad port", 1, 70000, List.of("gpu"), 8, "--port must be between 0 and 65535"),
        new Case("negative devices", 1, 6443, List.of("gpu"), -1, "--num-devices must not be"),
        new Case("no profile", 1, 6443, List.of(), 8, "must name at least one profile"),
        new Case(
            "unknown profile", 1, 6443, List.of("tpu"), 8, "unknown profile \"tpu\" (known: gpu"),
        new Case("profile twice", 1, 6443, List.of("gpu", "gpu"), 8, "names a profile twice"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validates(Case c) {
    if (c.error() == null) {
      UpOptions o = options(c);
      assertThat(o.nodeRoot("node-2")).isEqualTo(Path.of("d/nodes/node-2"));
      return;
    }
    assertThatThrownBy(() -> options(c))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(c.error());
  }

  @Test
  void controllerPluginsAreTheChartsControllerPlugins() {
    assertThat(withPlugins(List.of("BindingConditions")).controllerPlugins())
        .containsExactly("BindingConditions");
    assertThat(withPlugins(null).controllerPlugins()).isEmpty();
    assertThatThrownBy(() -> withPlugins(List.of("Bogus")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "--controller-plugins: unknown plugin \"Bogus\" (available: BindingConditions)");
  }

  private static UpOptions withPlugins(List<String> plugins) {
    return new UpOptions(
        1,
        Path.of("d"),
        0,
        List.of("gpu"),
        8,
        List.of(),
        null,
        plugins,
        FeatureGates.defaults(),
        false,
        "127.0.0.1:0");
  }

  private static UpOptions options(Case c) {
    return new UpOptions(
        c.nodes(),
        Path.of("d"),
        c.port(),
        c.profiles(),
        c.devices(),
        List.of(),
        null,
        List.of(),
        FeatureGates.defaults(),
        false,
        "127.0.0.1:0");
  }
}
