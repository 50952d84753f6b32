package io.jdra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jdra.api.features.FeatureGates;
import io.jdra.cli.simulate.ScenarioException;
import io.jdra.cli.simulate.ScenarioReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code jdra simulate}: scenario validation, the examples, outputs and the HTML report. */
class SimulateCommandTest {
  record Result(int code, String out, String err) {}

  @TempDir Path tmp;

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  static Path examples() {
    Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("examples/simulate"))) {
      dir = dir.getParent();
    }
    assumeTrue(dir != null, "examples/simulate not found above the working directory");
    return dir.resolve("examples/simulate");
  }

  static final String CLUSTER =
      """
      cluster:
        nodes:
          - name: n
            drivers: [{profile: gpu}]
      """;

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("no cluster", "workload: {pods: [{name: a, count: 1}]}", "cluster: required"),
        Arguments.of(
            "claim count zero",
            CLUSTER
                + """
                workload:
                  pods:
                    - name: a
                      count: 1
                      claims:
                        - {name: one, deviceClassName: gpu.example.com}
                        - {name: two, deviceClassName: gpu.example.com, count: 0}
                """,
            "workload.pods[0].claims[1].count: must be > 0"),
        Arguments.of(
            "unknown field",
            CLUSTER + "workload: {pods: [{name: a, cout: 3}]}",
            "workload.pods[0].cout: unknown field (known: name, count, rate"),
        Arguments.of(
            "bad duration",
            CLUSTER + "workload: {pods: [{name: a, count: 1, runDuration: ten minutes}]}",
            "workload.pods[0].runDuration: invalid duration \"ten minutes\""),
        Arguments.of(
            "rate without an end",
            CLUSTER + "workload: {pods: [{name: a, rate: 3/m}]}",
            "workload.pods[0].rate: without count needs until (or the scenario's duration)"),
        Arguments.of(
            "bad rate",
            CLUSTER + "workload: {pods: [{name: a, rate: fast, until: 1h}]}",
            "workload.pods[0].rate: must be like 30/h, 2/m or 0.5/s and > 0, not \"fast\""),
        Arguments.of(
            "unknown profile",
            """
            cluster: {nodes: [{name: n, drivers: [{profile: tpu}]}]}
            workload: {pods: [{name: a, count: 1}]}
            """,
            "cluster.nodes[0].drivers[0].profile: unknown profile \"tpu\", one of [gpu, cpu, net]"),
        Arguments.of(
            "bad driver flag",
            """
            cluster: {nodes: [{name: n, drivers: [{profile: gpu, flags: [--gpu-partitions=many]}]}]}
            workload: {pods: [{name: a, count: 1}]}
            """,
            "cluster.nodes[0].drivers[0].flags: "),
        Arguments.of(
            "CEL that does not compile",
            CLUSTER
                + """
                workload:
                  pods:
                    - name: a
                      count: 1
                      claims: [{name: g, deviceClassName: gpu.example.com, selectors: ["device.nope =="]}]
                """,
            "workload.pods[0].claims[0].selectors[0]: Invalid value: "),
        Arguments.of(
            "class not in the cluster",
            CLUSTER
                + "workload: {pods: [{name: a, count: 1, claims: [{name: g, deviceClassName: nope}]}]}",
            "workload.pods[0].claims[0].deviceClassName: DeviceClass \"nope\" is not in the"
                + " cluster (known: [gpu.example.com])"),
        Arguments.of(
            "full spec checked as the API server does",
            CLUSTER
                + """
                workload:
                  pods:
                    - name: a
                      count: 1
                      claims:
                        - name: g
                          spec: {devices: {requests: [{exactly: {deviceClassName: gpu.example.com}}]}}
                """,
            "workload.pods[0].claims[0].spec.devices.requests[0].name: Invalid value: \"\": a lowercase RFC 1123 label"),
        Arguments.of(
            "deletion of an unknown template",
            CLUSTER
                + """
                workload:
                  pods: [{name: a, count: 1}]
                  deletions: [{at: 1h, template: b}]
                """,
            "workload.deletions[0].template: no pod template \"b\" (known: [a])"),
        Arguments.of(
            "duplicate template",
            CLUSTER + "workload: {pods: [{name: a, count: 1}, {name: a, count: 2}]}",
            "workload.pods[1].name: duplicate name \"a\""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void invalidScenariosSayWhereAndWhy(String name, String yaml, String expected)
      throws IOException {
    Path f = tmp.resolve("s.yaml");
    Files.writeString(f, yaml);
    Result r = run("simulate", "-f", f.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("scenario " + f + " is invalid:").contains(expected);
    assertThat(r.out()).isEmpty();
  }

  @Test
  void everyProblemIsListedAtOnce() {
    try {
      ScenarioReader.parse(
          "s.yaml",
          "s",
          """
          cluster: {nodes: [{name: N, count: 0}]}
          workload: {pods: [{count: -1}]}
          """,
          ExampleDriverCommand::parseFlags);
    } catch (ScenarioException e) {
      assertThat(e.problems())
          .contains(
              "cluster.nodes[0].count: must be > 0",
              "workload.pods[0].name: required",
              "workload.pods[0].count: must be > 0")
          .anyMatch(p -> p.startsWith("cluster.nodes[0].name: \"N\" must be lower case"));
      return;
    }
    throw new AssertionError("no ScenarioException");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("exampleFiles")
  void theExamplesRunAndWriteAReport(String file) throws IOException {
    Path report = tmp.resolve("report");
    Result r =
        run(
            "simulate",
            "-f",
            examples().resolve(file).toString(),
            "-o",
            "json",
            "--report",
            report.toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode json = JsonMapper.builder().build().readTree(r.out());
    assertThat(json.get("pods").get("created").asInt()).isPositive();
    assertThat(json.get("samples").size()).isGreaterThan(10);
    assertThat(r.err()).contains("simulated ").contains("report: ");
    String html = Files.readString(report.resolve("index.html"));
    assertThat(html)
        .contains("<svg")
        .contains("Device utilisation")
        .contains("Pending time")
        .contains("<h2>Scenario</h2>")
        .contains("workload:");
    // Self-contained: nothing to fetch.
    assertThat(html)
        .doesNotContain("src=")
        .doesNotContain("href=")
        .doesNotContain("url(")
        .doesNotContain("@import");
  }

  static Stream<String> exampleFiles() {
    // large-cluster.yaml takes 25 s and more: run by hand (docs/SIMULATE.md, Speed).
    return Stream.of("gpu-mix.yaml", "partitioned-gpus.yaml", "unschedulable.yaml");
  }

  /**
   * The report as a browser sees it: headless Chromium (when installed) loads the file and its DOM
   * has the charts' lines. A screenshot of the same page is how the report was checked by eye.
   */
  @Test
  void aBrowserRendersTheCharts() throws Exception {
    Path chromium = onPath("chromium");
    assumeTrue(chromium != null, "chromium not installed");
    Path report = tmp.resolve("report");
    Result r =
        run(
            "simulate",
            "-f",
            examples().resolve("partitioned-gpus.yaml").toString(),
            "--report",
            report.toString());
    assertThat(r.code()).as(r.err()).isZero();
    Path dom = tmp.resolve("dom.html");
    Process p =
        new ProcessBuilder(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--user-data-dir=" + tmp.resolve("profile"),
                "--dump-dom",
                report.resolve("index.html").toUri().toString())
            .redirectOutput(dom.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    } finally {
      p.destroyForcibly();
    }
    String html = Files.readString(dom);
    // 5 charts, 11 lines: pending, running; scheduled, completed; one driver; workload and two
    // templates; all and two templates.
    assertThat(html.split("<polyline", -1)).hasSize(12);
    assertThat(html).contains("<figcaption>Device utilisation</figcaption>");
  }

  private static Path onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path p = Path.of(dir, command);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  @Test
  void everyExampleIsAValidScenario() throws IOException {
    try (Stream<Path> files = Files.list(examples())) {
      List<Path> yaml = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
      assertThat(yaml).hasSizeGreaterThanOrEqualTo(4);
      for (Path f : yaml) {
        assertThat(ScenarioReader.read(f, ExampleDriverCommand::parseFlags).pods()).isNotEmpty();
      }
    }
  }

  @Test
  void textReportGroupsUnschedulableReasons() {
    Result r = run("simulate", "-f", examples().resolve("unschedulable.yaml").toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("Why attempts failed")
        .contains("too-many-gpus: 3 pods")
        .contains("needs 16 devices, too few usable")
        .contains("wrong-model: 2 pods")
        .contains("(rejected: request selector false)")
        .contains("big-cpu: 1 pods")
        .contains("NodeResourcesFit: Insufficient cpu")
        .contains("Still pending at the end:");
  }

  @Test
  void seedOverride() throws IOException {
    Path f = tmp.resolve("s.yaml");
    Files.writeString(
        f,
        CLUSTER
            + """
            workload:
              pods:
                - {name: a, rate: 10/h, until: 2h, runDuration: 10m, claims: [{name: g, deviceClassName: gpu.example.com}]}
            """);
    String one = run("simulate", "-f", f.toString(), "-o", "json", "--seed", "1").out();
    String two = run("simulate", "-f", f.toString(), "-o", "json", "--seed", "2").out();
    assertThat(one).contains("\"seed\" : 1").isNotEqualTo(two);
    assertThat(FeatureGates.defaults()).isNotNull();
  }

  @Test
  void badOutputAndMissingFile() {
    assertThat(run("simulate", "-f", "nope.yaml").err()).contains("read nope.yaml: no such file");
    Result r = run("simulate", "-f", "nope.yaml", "-o", "xml");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("--output: must be text or json");
  }
}
