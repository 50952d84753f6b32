package io.jdra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.jdra.cli.CliTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jdra bench scheduler}: a smoke run of the smallest workload checks the end state only
 * (never timed: throughput on a shared machine says nothing), the outputs, and bad input.
 */
class BenchCommandTest {
  @Test
  @SuppressWarnings("unchecked")
  void smallestWorkloadEndsCorrectWithJsonReportAndProfile(@TempDir Path dir) throws Exception {
    List<String> args =
        withTemplates(
            List.of(
                "bench",
                "scheduler",
                "--workload",
                "SchedulingWithResourceClaimTemplate/fast",
                "--json-file",
                dir.resolve("out.json").toString(),
                "--report",
                dir.resolve("report").toString(),
                "--jfr",
                dir.resolve("run.jfr").toString()));

    Result r = CliTest.run(args.toArray(String[]::new));

    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("correctness: ok (10 pods, 10 claims, 10 devices allocated)");
    assertThat(r.out()).contains("; no warm-up (a cold JVM)");
    assertThat(r.err()).doesNotContain("warm-up run");
    // What a measured pod cost. Not exact counts: a request is counted once its response is
    // written, which may be after the watch delivered the last bind and the measurement stopped.
    assertThat(r.out())
        .contains("CPU per measured pod: ", "API requests per measured pod: ")
        .contains("POST pods 201 ", "POST pods/binding 201 ")
        .containsPattern("of it by threads, ms per pod: .*scheduler loop \\d+\\.\\d\\d");
    Map<String, Object> doc =
        Serialization.unmarshal(Files.readString(dir.resolve("out.json")), Map.class);
    Map<String, Object> check = (Map<String, Object>) doc.get("correctness");
    assertThat(check).containsEntry("ok", true).containsEntry("pods", 10);
    List<Map<String, Object>> items = (List<Map<String, Object>>) doc.get("dataItems");
    assertThat(items)
        .extracting(i -> ((Map<String, Object>) i.get("labels")).get("Metric"))
        .contains(
            "SchedulingThroughput",
            "scheduler_schedule_attempts_total",
            "apiserver_request_total",
            "process_cpu_per_pod_by_threads");
    assertThat(items.get(0).get("data")).asString().contains("Perc50", "Perc99", "Average");
    assertThat(Files.size(dir.resolve("run.jfr"))).isPositive();
    String html = Files.readString(dir.resolve("report/index.html"));
    assertThat(html).contains("<svg", "SchedulingThroughput over time", "Latency distribution");
    // Self-contained: nothing loaded from elsewhere (the SVG namespace is a name, not a fetch).
    assertThat(html).doesNotContain("<script", "<link", "src=", "url(");
  }

  @Test
  void configFileWithChurnBarrierAndSleepEndsCorrect(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("performance-config.yaml");
    // Templates by upstream's names; absent from dir, so jdra's descriptions of them are used.
    Files.writeString(
        config,
        String.join(
            "\n",
            "- name: Mine",
            "  workloadTemplate:",
            "  - opcode: createNodes",
            "    nodeTemplatePath: templates/node-with-dra-test-driver.yaml",
            "    countParam: $nodes",
            "  - opcode: createResourceDriver",
            "    driverName: test-driver.cdi.k8s.io",
            "    nodes: scheduler-perf-dra-*",
            "    maxClaimsPerNode: 4",
            "  - opcode: createAny",
            "    templatePath: templates/deviceclass.yaml",
            "  - opcode: createAny",
            "    templatePath: templates/resourceclaimtemplate.yaml",
            "    namespace: test",
            "  - opcode: churn",
            "    mode: recreate",
            "    templatePaths: [templates/resourceclaim.yaml]",
            "    intervalMilliseconds: 100",
            "    number: 2",
            "  - opcode: createPods",
            "    namespace: test",
            "    countParam: $pods",
            "    podTemplatePath: templates/pod-with-claim-template.yaml",
            "    collectMetrics: true",
            "    skipWaitToCompletion: true",
            "  - opcode: barrier",
            "  - opcode: sleep",
            "    duration: 200ms",
            "  workloads:",
            "  - name: small",
            "    params: {nodes: 2, pods: 6}"));

    Result r =
        CliTest.run("bench", "scheduler", "--config", config.toString(), "--workload", "small");

    assertThat(r.code()).as(r.err() + r.out()).isZero();
    assertThat(r.out()).contains("correctness: ok (6 pods, ");
    assertThat(r.err()).contains("churn recreate", "barrier (all) done in", "sleep 200ms done in");
  }

  @Test
  void configFileWithAnUnknownTemplateSaysWhich(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("performance-config.yaml");
    Files.writeString(
        config,
        String.join(
            "\n",
            "- name: Mine",
            "  workloadTemplate:",
            "  - opcode: createAny",
            "    templatePath: templates/not-upstreams.yaml",
            "  - opcode: createPods",
            "    count: 1",
            "    collectMetrics: true",
            "  workloads:",
            "  - name: one",
            "    params: {}"));

    Result list = CliTest.run("bench", "scheduler", "--config", config.toString(), "--list");
    Result run =
        CliTest.run("bench", "scheduler", "--config", config.toString(), "--workload", "one");

    assertThat(list.out()).contains("Mine/one");
    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err())
        .contains(
            "error: " + config + ": template templates/not-upstreams.yaml not found under " + dir);
  }

  @Test
  @SuppressWarnings("unchecked")
  void warmUpRunsComeFirstAndTheOutputSaysSo() throws Exception {
    List<String> args =
        withTemplates(
            List.of(
                "bench",
                "scheduler",
                "--workload",
                "SchedulingWithResourceClaimTemplate/fast",
                "--warmup",
                "1",
                "-o",
                "json"));

    Result r = CliTest.run(args.toArray(String[]::new));

    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).containsOnlyOnce("warm-up run 1/1: ").contains("end state ok");
    Map<String, Object> doc = Serialization.unmarshal(r.out(), Map.class);
    assertThat((Map<String, Object>) doc.get("conditions"))
        .containsEntry("warmupRuns", 1)
        .containsEntry("jit", io.jdra.cli.bench.RunConditions.current(1).jit());
    assertThat((Map<String, Object>) doc.get("correctness")).containsEntry("ok", true);
  }

  @Test
  @SuppressWarnings("unchecked")
  void autoWarmUpSaysTheJitShareOfEachRunAndCountsItsRuns() throws Exception {
    List<String> args =
        withTemplates(
            List.of(
                "bench",
                "scheduler",
                "--workload",
                "SchedulingWithResourceClaimTemplate/fast",
                "--warmup",
                "auto:2",
                "-o",
                "json"));

    Result r = CliTest.run(args.toArray(String[]::new));

    assertThat(r.code()).as(r.err()).isZero();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "warm-up run (\\d): .* end state ok, JIT ([0-9.]+ %|unknown) of CPU")
            .matcher(r.err());
    int lines = 0;
    while (m.find()) {
      lines++;
      assertThat(m.group(1)).isEqualTo(String.valueOf(lines));
    }
    assertThat(lines).as(r.err()).isBetween(1, 2);
    Map<String, Object> doc = Serialization.unmarshal(r.out(), Map.class);
    assertThat((Map<String, Object>) doc.get("conditions")).containsEntry("warmupRuns", lines);
  }

  @Test
  void warmUpThatIsNotANumberOrAutoIsOneLineExitOne() {
    Result r = CliTest.run("bench", "scheduler", "--warmup", "lots");

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("error: --warmup: must be a number >= 0, 'auto' or 'auto:MAX', got 'lots'");
  }

  @Test
  void countMeasuresSeveralTimesAndReportsTheMedianRun() throws Exception {
    List<String> args =
        withTemplates(
            List.of(
                "bench",
                "scheduler",
                "--workload",
                "SchedulingWithResourceClaimTemplate/fast",
                "--count",
                "2"));

    Result r = CliTest.run(args.toArray(String[]::new));

    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err())
        .containsOnlyOnce("measured run 1/2: ")
        .containsOnlyOnce("measured run 2/2: ");
    assertThat(r.out())
        .containsOnlyOnce("SchedulingThroughput pods/s")
        .containsPattern(
            "SchedulingThroughput average over 2 measured runs: median [0-9.]+ pods/s \\(runs:"
                + " [0-9.]+, [0-9.]+\\)");
  }

  @Test
  @SuppressWarnings("unchecked")
  void steadyStateEndsWithTheDeletedPodsClaimsReleased() throws Exception {
    List<String> args =
        withTemplates(
            List.of(
                "bench",
                "scheduler",
                "--workload",
                "SteadyStateClusterResourceClaimTemplate/fast",
                "-o",
                "json"));

    Result r = CliTest.run(args.toArray(String[]::new));

    assertThat(r.code()).as(r.err()).isZero();
    Map<String, Object> doc = Serialization.unmarshal(r.out(), Map.class);
    Map<String, Object> correctness = (Map<String, Object>) doc.get("correctness");
    assertThat(correctness).containsEntry("ok", true);
    // more claims than pods left: the deleted batches' claims were checked for being released
    assertThat((Integer) correctness.get("claims"))
        .isGreaterThan((Integer) correctness.get("pods"));
  }

  @Test
  void countBelowOneIsOneLineExitOne() {
    Result r = CliTest.run("bench", "scheduler", "--count", "0");

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("error: --count: must be >= 1, got 0");
  }

  @Test
  void negativeWarmUpIsOneLineExitOne() {
    Result r = CliTest.run("bench", "scheduler", "--warmup", "-1");

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("error: --warmup: must be >= 0, got -1");
  }

  @Test
  void unknownWorkloadIsOneLineExitOne() {
    Result r = CliTest.run("bench", "scheduler", "--workload", "nope");

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("error: --workload: unknown workload \"nope\"; known: ");
  }

  /** Upstream's templates where this machine has them, jdra's descriptions of them elsewhere. */
  private static List<String> withTemplates(List<String> args) {
    List<String> out = new ArrayList<>(args);
    Path templates = BenchCommand.Scheduler.find(Path.of("").toAbsolutePath());
    if (templates != null) {
      out.addAll(List.of("--templates", templates.toString()));
    }
    return out;
  }
}
