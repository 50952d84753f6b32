package io.jdra.cli.up;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DriverFlagsTest {
  record Case(String name, List<String> flags, String profile, List<String> want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    List<String> mixed =
        List.of(
            "--gpu-partitions=4",
            "--cpu-numa-nodes=1",
            "--binding-conditions",
            "--gpu-allow-multiple-allocations");
    return Stream.of(
        new Case(
            "gpu flags and common flags reach gpu drivers",
            mixed,
            "gpu",
            List.of(
                "--gpu-partitions=4", "--binding-conditions", "--gpu-allow-multiple-allocations")),
        new Case(
            "cpu flags and common flags reach cpu drivers",
            mixed,
            "cpu",
            List.of("--cpu-numa-nodes=1", "--binding-conditions")),
        new Case(
            "net drivers get only common flags", mixed, "net", List.of("--binding-conditions")),
        new Case("nothing given", List.of(), "gpu", List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void routesFlagsToTheirProfile(Case c) {
    assertThat(DriverFlags.forProfile(c.flags(), c.profile())).isEqualTo(c.want());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("reserved")
  void refusesFlagsJdraUpSets(String flag) {
    assertThatThrownBy(() -> DriverFlags.forProfile(List.of(flag), "gpu"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is set by jdra up for each node and driver");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ports")
  void refusesPortsEveryDriverWouldShare(String flag) {
    assertThatThrownBy(() -> DriverFlags.forProfile(List.of(flag), "gpu"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("would give every driver the same port");
  }

  static Stream<String> ports() {
    return Stream.of("--healthcheck-port=8081", "--metrics-port=8080", "--metrics-port");
  }

  static Stream<String> reserved() {
    return Stream.of(
        "--node-name=x",
        "--cdi-root=/etc/cdi",
        "--kubelet-plugins-directory-path=/p",
        "--device-profile=net",
        "--driver-name=x.example.com");
  }
}
