package io.jdra.runtime.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ThreadGroupCpuTest {
  private static final Map<String, Pattern> GROUPS = new LinkedHashMap<>();

  static {
    GROUPS.put("jit", Pattern.compile("C[12] Compiler"));
    GROUPS.put("gc", Pattern.compile("GC Thread|G1 "));
  }

  @Test
  void readsNameAndUserPlusSystemTicksOfAStatLine() {
    // Fields after the name: state, ppid, pgrp, session, tty, tpgid, flags, minflt, cminflt,
    // majflt, cmajflt, utime (250 ticks), stime (50 ticks), ...
    String stat = "4242 (C2 Compiler (x)) S 1 1 1 0 -1 4194368 10 0 0 0 250 50 0 0 20 0 1 0";

    assertThat(ThreadGroupCpu.comm(stat)).isEqualTo("C2 Compiler (x)");
    assertThat(ThreadGroupCpu.nanos(stat)).isEqualTo(3_000_000_000L);
  }

  @Test
  void groupsByTheFirstPatternMatchingTheStartOfTheName() {
    assertThat(ThreadGroupCpu.group("C2 CompilerThre", GROUPS)).isEqualTo("jit");
    assertThat(ThreadGroupCpu.group("G1 Conc#0", GROUPS)).isEqualTo("gc");
    assertThat(ThreadGroupCpu.group("my GC Thread", GROUPS)).isEqualTo("other");
  }

  @Test
  void readsThisProcessAndSubtractsPerGroup() {
    assertThat(ThreadGroupCpu.read(ThreadGroupCpu.self(), GROUPS))
        .containsOnlyKeys("jit", "gc", "other");
    assertThat(ThreadGroupCpu.read(Path.of("/nonexistent/task"), GROUPS)).isEmpty();
    assertThat(ThreadGroupCpu.minus(Map.of("gc", 12L), Map.of("gc", 5L))).containsEntry("gc", 7L);
    assertThat(ThreadGroupCpu.minus(Map.of("gc", 12L), Map.of())).isEmpty();
  }
}
