package io.jdra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.cli.logging.LogFormat;
import io.jdra.cli.logging.LoggingConfig;
import io.jdra.runtime.logging.Verbosity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CliTest {
  record Result(int code, String out, String err) {}

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  @AfterEach
  void resetLogging() {
    LoggingConfig.set(new LoggingConfig(0, LogFormat.text));
  }

  @Test
  void helpListsSubcommandsAndGlobalFlags() {
    Result r = run("--help");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains("Usage: jdra")
        .contains("version")
        .contains("-v, --v=N")
        .contains("--logging-format=FORMAT")
        .contains("--feature-gates=A=true,B=false");
    assertThat(r.err()).isEmpty();
  }

  /**
   * picocli formats each description line with String.format (for %n); a bare '%' makes it print a
   * WARN to the JVM's stderr and show the raw text. Every command's help must render without.
   */
  @Test
  void everyCommandsHelpRendersWithoutPicocliWarnings() {
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    java.io.PrintStream stderr = System.err;
    System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      renderAll(
          JdraCommand.commandLine(
              new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())));
    } finally {
      System.setErr(stderr);
    }
    assertThat(captured.toString(java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("WARN");
  }

  private static void renderAll(picocli.CommandLine cl) {
    assertThat(cl.getUsageMessage()).isNotEmpty();
    cl.getSubcommands().values().forEach(CliTest::renderAll);
  }

  @Test
  void featureGateHelpListsGatesAndSaysLockedGatesCanBeSwitchedOff() {
    Result r = run("version", "--help");
    assertThat(r.out()).contains("DRAAdminAccess=true|false").contains("may still be switched off");
  }

  @Test
  void versionPrintsKubernetesReleaseAndApi() {
    Result r = run("version");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .contains("jdra version: ")
        .contains("Kubernetes semantics: 1.36")
        .contains("DRA API: resource.k8s.io/v1")
        .contains("Java: " + Runtime.version().feature());
  }

  @Test
  void versionAsJson() {
    Result r = run("version", "-o", "json");
    assertThat(r.code()).isZero();
    assertThat(r.out().strip())
        .startsWith("{\"jdraVersion\":")
        .contains("\"kubernetesVersion\":\"1.36\"")
        .endsWith("}");
  }

  @Test
  void inheritedFlagsAreAcceptedBeforeAndAfterTheSubcommand() {
    assertThat(run("-v", "3", "version").code()).isZero();
    assertThat(LoggingConfig.current().verbosity()).isEqualTo(3);
    assertThat(Verbosity.get()).as("components' V-loggers follow -v").isEqualTo(3);
    assertThat(run("version", "--logging-format", "json", "-v", "6").code()).isZero();
    assertThat(LoggingConfig.current()).isEqualTo(new LoggingConfig(6, LogFormat.json));
  }

  static Stream<Arguments> userMistakes() {
    return Stream.of(
        Arguments.of(List.of("--nope"), "error: Unknown option: '--nope'"),
        Arguments.of(
            List.of("-v", "loud", "version"),
            "error: Invalid value for option '--v': 'loud' is not an int"),
        Arguments.of(
            List.of("-v", "-1", "version"), "error: invalid value for -v: -1 (must be >= 0)"),
        Arguments.of(
            List.of("--logging-format", "xml", "version"),
            "error: Invalid value for option '--logging-format': expected one of [text, json]"
                + " (case-insensitive) but was 'xml'"),
        Arguments.of(
            List.of("--feature-gates", "Bogus=true", "version"),
            "error: Invalid value for option '--feature-gates': unrecognized"
                + " feature gate: Bogus"),
        Arguments.of(
            List.of("apiserver", "--port", "0", "--token-auth-file", "/no/such/tokens.csv"),
            "error: --token-auth-file /no/such/tokens.csv: no such file"),
        Arguments.of(
            List.of("version", "-o", "xml"),
            "error: Invalid value for option '--output': expected one of [text, json]"
                + " (case-insensitive) but was 'xml'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unknownCommands")
  void anUnknownCommandExitsTwoAndListsTheCommandsEvenWithHelp(List<String> args) {
    Result r = run(args.toArray(String[]::new));
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    List<String> lines = r.err().lines().toList();
    assertThat(lines.get(0)).isEqualTo("error: unknown command NOSUCH");
    assertThat(lines.get(1)).startsWith("Commands: ").contains("apiserver").contains("version");
  }

  static Stream<List<String>> unknownCommands() {
    return Stream.of(
        List.of("NOSUCH"),
        List.of("NOSUCH", "--help"),
        List.of("--help", "NOSUCH"),
        List.of("-v", "2", "NOSUCH", "-h"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("userMistakes")
  void userMistakesExitOneWithOneLineAndNoStackTrace(List<String> args, String firstLine) {
    Result r = run(args.toArray(String[]::new));
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    List<String> lines = r.err().lines().toList();
    assertThat(lines.get(0)).isEqualTo(firstLine);
    assertThat(r.err()).doesNotContain("\tat ").doesNotContain("Exception");
  }
}
