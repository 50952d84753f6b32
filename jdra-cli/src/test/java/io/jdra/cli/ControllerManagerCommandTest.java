package io.jdra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.cli.CliTest.Result;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code jdra controller-manager}: help and bad input (its running is tested in jdra-controllers).
 */
class ControllerManagerCommandTest {
  @Test
  void helpNamesEveryFlagAndTheKnownControllers() {
    Result r = CliTest.run("controller-manager", "--help");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains(
            "--kubeconfig",
            "--controllers",
            "--concurrent-resource-claim-syncs",
            "(default: 50)",
            "--leader-elect",
            "--leader-elect-resource-namespace",
            "kube-system",
            "--metrics-bind-address",
            "--feature-gates",
            "resourceclaim-controller (resourceclaim)");
  }

  static Stream<Arguments> mistakes() {
    return Stream.of(
        Arguments.of(
            List.of("--controllers", "resourceclaim,bogus"),
            "error: --controllers: \"bogus\" is not in the list of known controllers"
                + " [resourceclaim-controller (resourceclaim)]"),
        Arguments.of(
            List.of("--concurrent-resource-claim-syncs", "0"),
            "error: --concurrent-resource-claim-syncs must be at least 1, got 0"),
        Arguments.of(
            List.of("--kubeconfig", "/nonexistent/kubeconfig"),
            "error: read --kubeconfig /nonexistent/kubeconfig: /nonexistent/kubeconfig"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mistakes")
  void badInputIsOneLineExitOne(List<String> args, String firstLine) {
    String[] all =
        Stream.concat(Stream.of("controller-manager"), args.stream()).toArray(String[]::new);
    Result r = CliTest.run(all);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().lines().findFirst().orElse("")).isEqualTo(firstLine);
    assertThat(r.err()).doesNotContain("\tat ");
  }
}
