package io.jdra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.jdra.cli.CliTest.Result;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code jdra bench scheduler}: a smoke run of the smallest workload checks the end state only
 * (never timed: throughput on a shared machine says nothing), and bad input.
 */
class BenchCommandTest {
  @Test
  @SuppressWarnings("unchecked")
  void smallestWorkloadEndsCorrect() {
    Path templates = BenchCommand.Scheduler.find(Path.of("").toAbsolutePath());
    assumeTrue(templates != null, "upstream scheduler_perf templates absent; skipping");

    Result r =
        CliTest.run(
            "bench",
            "scheduler",
            "--workload",
            "fast",
            "--json",
            "--templates",
            templates.toString());

    assertThat(r.code()).as(r.err()).isZero();
    Map<String, Object> doc = Serialization.unmarshal(r.out(), Map.class);
    Map<String, Object> check = (Map<String, Object>) doc.get("correctness");
    assertThat(check).containsEntry("ok", true).containsEntry("pods", 10);
    assertThat(check).containsEntry("claims", 10).containsEntry("devicesAllocated", 10);
    List<Map<String, Object>> items = (List<Map<String, Object>>) doc.get("dataItems");
    assertThat(items)
        .extracting(i -> ((Map<String, Object>) i.get("labels")).get("Metric"))
        .contains("SchedulingThroughput");
    Map<String, Object> attempts = (Map<String, Object>) items.get(2).get("data");
    assertThat(attempts).containsEntry("scheduled", 10);
  }

  @Test
  void unknownWorkloadIsOneLineExitOne() {
    Result r = CliTest.run("bench", "scheduler", "--workload", "nope");

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("error: --workload: unknown workload \"nope\"; known: ");
  }
}
