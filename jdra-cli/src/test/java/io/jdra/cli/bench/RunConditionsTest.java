package io.jdra.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
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

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "G1 Young Generation, G1 Concurrent GC, G1 Old Generation | G1",
        "PS Scavenge, PS MarkSweep | Parallel",
        "ZGC Minor Cycles, ZGC Minor Pauses, ZGC Major Cycles, ZGC Major Pauses | ZGC",
        "Shenandoah Pauses, Shenandoah Cycles | Shenandoah",
        "Copy, MarkSweepCompact | Serial",
        "Epsilon Heap | Epsilon Heap",
      })
  void gcFromItsBeanNames(String names, String want) {
    assertThat(RunConditions.gcOf(List.of(names.split(", ")))).isEqualTo(want);
  }

  @Test
  void describesColdAndWarmRuns() {
    assertThat(new RunConditions(0, "C1 only", "Parallel").describe())
        .isEqualTo("JIT: C1 only; GC: Parallel; no warm-up (a cold JVM)");
    assertThat(new RunConditions(1, "C1 and C2", "G1").describe())
        .isEqualTo("JIT: C1 and C2; GC: G1; 1 warm-up run of this workload before");
    assertThat(new RunConditions(3, "C1 and C2", "G1").describe())
        .endsWith("3 warm-up runs of this workload before");
    assertThat(RunConditions.current(0).gc()).isIn("G1", "Parallel", "Serial", "ZGC");
  }

  @Test
  void negativeWarmUpIsRefused() {
    assertThatThrownBy(() -> new RunConditions(-1, "C1 only", "G1"))
        .hasMessage("warm-up runs must be >= 0, got -1");
  }
}
