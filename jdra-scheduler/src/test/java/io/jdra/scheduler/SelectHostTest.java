package io.jdra.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.scheduler.framework.NodeInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Picking among equally scored nodes: at random, and repeatably with a seeded generator. */
class SelectHostTest {
  static final List<NodeInfo> NODES =
      List.of(
          NodeInfo.placeholder("a"),
          NodeInfo.placeholder("b"),
          NodeInfo.placeholder("c"),
          NodeInfo.placeholder("d"));

  static List<String> picks(Random r) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      out.add(SchedulingAlgorithm.selectHost(NODES, new long[] {5, 7, 7, 7}, r));
    }
    return out;
  }

  @Test
  void theHighestScoreWins() {
    assertThat(SchedulingAlgorithm.selectHost(NODES, new long[] {1, 9, 3, 2}, new Random(1)))
        .isEqualTo("b");
  }

  @Test
  void tiesAreBrokenAtRandomAndTheSameSeedBreaksThemTheSameWay() {
    List<String> one = picks(new Random(42));
    assertThat(one).doesNotContain("a").contains("b", "c", "d");
    assertThat(picks(new Random(42))).isEqualTo(one);
  }
}
