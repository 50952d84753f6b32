package io.jdra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.cli.CliTest.Result;
import org.junit.jupiter.api.Test;

/** {@code jdra example-controller}: help and bad input (its running is tested in its module). */
class ExampleControllerCommandTest {
  @Test
  void helpNamesUpstreamsFlagsAndPlugins() {
    Result r = CliTest.run("example-controller", "--help");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains(
            "--driver-name",
            "(default: gpu.example.com)",
            "--enable-plugin",
            "Available:",
            "BindingConditions.",
            "--kubeconfig");
  }

  @Test
  void anUnknownPluginIsOneLineExitOne() {
    Result r =
        CliTest.run(
            "example-controller",
            "--kubeconfig",
            ControllerManagerCommandTest.KUBECONFIG,
            "--enable-plugin",
            "BindingConditions,Bogus");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().lines().findFirst().orElse(""))
        .isEqualTo(
            "error: --enable-plugin: unknown plugin \"Bogus\" (available: BindingConditions)");
  }
}
