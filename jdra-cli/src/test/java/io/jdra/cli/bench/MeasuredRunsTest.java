package io.jdra.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MeasuredRunsTest {
  private static BenchResult run(double podsPerSecond, String problem) {
    Measurement.Result measured =
        new Measurement.Result(
            new Throughput(new double[] {podsPerSecond}, List.of()),
            new double[0],
            Map.of(),
            null,
            Map.of(),
            0,
            Map.of(),
            Map.of());
    Correctness c = new Correctness(1, 1, 1, problem == null ? List.of() : List.of(problem));
    return new BenchResult(null, measured, c, Map.of(), 0, new RunConditions(0, "C1", "Parallel"));
  }

  @Test
  void reportsTheRunWithTheMedianThroughput() {
    BenchResult slow = run(400, null);
    BenchResult mid = run(500, null);
    BenchResult fast = run(650, null);

    assertThat(MeasuredRuns.reported(List.of(fast, slow, mid))).isSameAs(mid);
    assertThat(MeasuredRuns.reported(List.of(fast, slow))).as("lower middle").isSameAs(slow);
    assertThat(MeasuredRuns.reported(List.of(fast))).isSameAs(fast);
    assertThat(MeasuredRuns.summary(List.of(fast, slow, mid)))
        .isEqualTo(
            "SchedulingThroughput average over 3 measured runs: median 500.0 pods/s"
                + " (runs: 650.0, 400.0, 500.0)");
  }

  @Test
  void aWrongEndStateOutranksAnyNumber() {
    BenchResult wrong = run(900, "claim ns/c reserved for a pod that does not exist");

    assertThat(MeasuredRuns.reported(List.of(run(500, null), wrong, run(600, null))))
        .isSameAs(wrong);
    assertThatThrownBy(() -> MeasuredRuns.reported(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
