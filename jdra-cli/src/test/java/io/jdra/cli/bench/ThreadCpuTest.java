package io.jdra.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.runtime.metrics.ThreadGroupCpu;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ThreadCpuTest {
  @ParameterizedTest
  @CsvSource({
    "vert.x-eventloo, API server (event loops)",
    "scheduler-loop-, scheduler loop",
    "scheduler-paral, scheduler Filter workers",
    "ForkJoinPool-1-, 'virtual threads (scheduler binding, event writes)'",
    "resource-claim-, 'ResourceClaim controller workers'",
    "-518522822-pool, informers (watch decoding and handlers)",
    "--51852282-pool, informers (watch decoding and handlers)",
    "-1558021762-poo, informers (watch decoding and handlers)",
    "pool-3-thread-1, informers (watch decoding and handlers)",
    "jdra-event-writ, events",
    "bench-worker, bench (pod creates)",
    "C2 CompilerThre, JIT compilers",
    "C1 CompilerThre, JIT compilers",
    "GC Thread#0, GC",
    "G1 Conc#0, GC",
    "ForkJoinPool.com, other",
    "main, other",
  })
  void groupsThreadsByTheirKernelNames(String comm, String group) {
    assertThat(ThreadCpu.group(comm)).isEqualTo(group);
  }

  @Test
  void readsThisProcessAndSubtractsPerGroup() {
    Map<String, Long> before = Map.of("GC", 5L, "other", 1L);
    Map<String, Long> after = Map.of("GC", 12L, "other", 1L);

    assertThat(ThreadGroupCpu.minus(after, before))
        .containsEntry("GC", 7L)
        .containsEntry("other", 0L);
    assertThat(ThreadGroupCpu.minus(after, Map.of())).isEmpty();
    assertThat(ThreadCpu.read()).containsKeys("GC", "JIT compilers", "other");
  }
}
