package io.jdra.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WarmupTest {
  @ParameterizedTest
  @CsvSource({"0, 0, false", "4, 4, false", "auto, 20, true", "AUTO, 20, true", "auto:3, 3, true"})
  void parses(String value, int runs, boolean auto) {
    assertThat(Warmup.parse(value)).isEqualTo(new Warmup(runs, auto));
  }

  @ParameterizedTest
  @CsvSource({
    "-1, 'must be >= 0, got -1'",
    "auto:-2, 'must be >= 0, got -2'",
    "x, 'must be a number >= 0, ''auto'' or ''auto:MAX'', got ''x'''",
    "auto:, 'must be a number >= 0, ''auto'' or ''auto:MAX'', got ''auto:'''"
  })
  void rejects(String value, String message) {
    assertThatThrownBy(() -> Warmup.parse(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  /**
   * Runs made by a warm-up whose runs have these JIT shares, in order, the last repeated (NaN:
   * unknown; none: 50 %).
   */
  private static int runsMade(Warmup w, double... shares) {
    int done = 0;
    double last = Double.NaN;
    while (w.another(done, last)) {
      last = shares.length == 0 ? 0.5 : shares[Math.min(done, shares.length - 1)];
      done++;
    }
    return done;
  }

  @Test
  void aFixedNumberIgnoresTheJit() {
    assertThat(runsMade(new Warmup(0, false), 0.5)).isZero();
    assertThat(runsMade(new Warmup(3, false), 0.0, 0.0, 0.0)).isEqualTo(3);
    assertThat(runsMade(new Warmup(2, false), 0.9, 0.9, 0.9)).isEqualTo(2);
  }

  @Test
  void autoStopsAfterTheFirstRunWithLittleJit() {
    Warmup auto = Warmup.parse("auto");

    assertThat(runsMade(auto, 0.30, 0.12, 0.031, 0.02, 0.01)).isEqualTo(4);
    assertThat(runsMade(auto, 0.03)).as("at the threshold").isEqualTo(1);
    assertThat(runsMade(auto, 0.0)).as("at least one run").isEqualTo(1);
  }

  @Test
  void autoStopsAtItsMost() {
    assertThat(runsMade(Warmup.parse("auto"))).isEqualTo(Warmup.AUTO_MAX_RUNS);
    assertThat(runsMade(Warmup.parse("auto:2"), 0.5, 0.5, 0.01)).isEqualTo(2);
    assertThat(runsMade(Warmup.parse("auto:0"))).isZero();
  }

  @Test
  void autoWithoutPerThreadCpuMakesAFixedNumber() {
    assertThat(runsMade(Warmup.parse("auto"), Double.NaN, Double.NaN, Double.NaN))
        .isEqualTo(Warmup.AUTO_WITHOUT_THREAD_CPU);
  }

  @Test
  void theJitShareIsTheCompilerThreadsPartOfTheMeasuredCpu() {
    BenchResult r = result(1_000_000L, Map.of(ThreadCpu.JIT, 250_000L, "GC", 100_000L));

    assertThat(r.jitShare()).isEqualTo(0.25);
    assertThat(result(1_000_000L, Map.of()).jitShare()).isNaN();
    assertThat(result(-1L, Map.of(ThreadCpu.JIT, 1L)).jitShare()).isNaN();
  }

  private static BenchResult result(long cpuNanos, Map<String, Long> threads) {
    Measurement.Result measured =
        new Measurement.Result(
            new Throughput(new double[] {100}, List.of()),
            new double[] {1.0},
            Map.of(),
            null,
            Map.of(),
            cpuNanos,
            threads,
            Map.of());
    return new BenchResult(
        null,
        measured,
        new Correctness(1, 1, 1, List.of()),
        Map.of(),
        0,
        new RunConditions(0, "C1 and C2", "Parallel"));
  }
}
