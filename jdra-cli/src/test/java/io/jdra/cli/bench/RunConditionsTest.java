package io.jdra.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RunConditionsTest {
  @ParameterizedTest(name = "TieredStopAtLevel={0} TieredCompilation={1}: {2}")
  @CsvSource(
      nullValues = "null",
      value = {
        "4, true, C1 and C2",
        "1, true, C1 only",
        "3, true, C1 only",
        "4, false, C2 only",
        "null, null, C1 and C2",
      })
  void jitFromTheVmOptions(String stopAt, String tiered, String want) {
    assertThat(RunConditions.jitOf(stopAt, tiered)).isEqualTo(want);
  }

  @Test
  void describesColdAndWarmRuns() {
    assertThat(new RunConditions(0, "C1 only").describe())
        .isEqualTo("JIT: C1 only; no warm-up (a cold JVM)");
    assertThat(new RunConditions(1, "C1 and C2").describe())
        .isEqualTo("JIT: C1 and C2; 1 warm-up run of this workload before");
    assertThat(new RunConditions(3, "C1 and C2").describe())
        .endsWith("3 warm-up runs of this workload before");
  }

  @Test
  void negativeWarmUpIsRefused() {
    assertThatThrownBy(() -> new RunConditions(-1, "C1 only"))
        .hasMessage("warm-up runs must be >= 0, got -1");
  }
}
