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
  /** A kubeconfig for a server that is never contacted. */
  static final String KUBECONFIG = kubeconfig();

  static String kubeconfig() {
    try {
      java.nio.file.Path f = java.nio.file.Files.createTempFile("kubeconfig", ".yaml");
      f.toFile().deleteOnExit();
      java.nio.file.Files.writeString(
          f,
          String.join(
              "\n",
              "apiVersion: v1",
              "kind: Config",
              "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]",
              "users: [{name: u, user: {token: t}}]",
              "contexts: [{name: x, context: {cluster: c, user: u}}]",
              "current-context: x"));
      return f.toString();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

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
            "--concurrent-device-taint-eviction-syncs",
            "(default: 10)",
            "--leader-elect",
            "--leader-elect-resource-namespace",
            "kube-system",
            "--metrics-bind-address",
            "--kube-api-qps",
            "(default: 20.0",
            "--kube-api-burst",
            "--feature-gates",
            "resourceclaim-controller (resourceclaim)",
            "--concurrent-gc-syncs",
            "(default: 20)",
            "--enable-garbage-collector",
            "--concurrent-namespace-syncs",
            "--concurrent-ttl-after-finished-syncs",
            "garbage-collector-controller (garbagecollector)",
            "namespace-controller (namespace)",
            "ttl-after-finished-controller (ttl-after-finished)");
  }

  static Stream<Arguments> mistakes() {
    return Stream.of(
        Arguments.of(
            List.of("--controllers", "resourceclaim,bogus"),
            "error: --controllers: \"bogus\" is not in the list of known controllers "
                + io.jdra.controllers.manager.Controllers.known(
                    io.jdra.controllers.manager.Controllers.builtIn())),
        Arguments.of(
            List.of("--concurrent-replicaset-syncs", "0"),
            "error: --concurrent-replicaset-syncs must be at least 1, got 0"),
        Arguments.of(
            List.of("--concurrent-resource-claim-syncs", "0"),
            "error: --concurrent-resource-claim-syncs must be at least 1, got 0"),
        Arguments.of(
            List.of("--concurrent-device-taint-eviction-syncs", "0"),
            "error: --concurrent-device-taint-eviction-syncs must be at least 1, got 0"),
        Arguments.of(
            List.of("--kubeconfig", "/nonexistent/kubeconfig"),
            "error: --kubeconfig /nonexistent/kubeconfig: no such file"),
        Arguments.of(
            List.of("--kubeconfig", KUBECONFIG, "--metrics-bind-address", "nocolon"),
            "error: metrics bind address nocolon must be host:port or :port"));
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
