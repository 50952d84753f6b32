package io.jdra.scheduler.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.allocator.AllocationOutcome;
import io.jdra.allocator.Explanation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Filter's rejections in array slots read as the concurrent map they replace. */
class RejectionsTest {
  private static AllocationOutcome.Unschedulable outcome(String node) {
    return new AllocationOutcome.Unschedulable(new Explanation(node, List.of(), List.of()));
  }

  @Test
  void readsAsTheMapOfTheSamePutsOneThread() {
    Random random = new Random(5);
    for (int round = 0; round < 2_000; round++) {
      int capacity = random.nextInt(30);
      Rejections rejections = new Rejections(capacity);
      Map<String, AllocationOutcome.Unschedulable> map = new ConcurrentHashMap<>();
      assertThat(rejections.isEmpty()).isTrue();
      // Up to twice the capacity, with nodes repeated now and then (Filter asked again).
      int puts = random.nextInt(2 * capacity + 2);
      for (int i = 0; i < puts; i++) {
        String node = "node-" + random.nextInt(Math.max(1, capacity + 5));
        AllocationOutcome.Unschedulable u = outcome(node);
        rejections.put(node, u);
        map.put(node, u);
      }
      assertThat(rejections.isEmpty()).isEqualTo(map.isEmpty());
      assertThat(rejections.asMap()).as("round %d", round).isEqualTo(map);
    }
  }

  @Test
  void filterThreadsAddingAtOnceLoseNothing() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      for (int round = 0; round < 50; round++) {
        int nodes = 400;
        Rejections rejections = new Rejections(nodes);
        Map<String, AllocationOutcome.Unschedulable> map = new ConcurrentHashMap<>();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          int first = t;
          done.add(
              pool.submit(() -> {
                for (int i = first; i < nodes; i += 4) {
                  AllocationOutcome.Unschedulable u = outcome("node-" + i);
                  rejections.put("node-" + i, u);
                  map.put("node-" + i, u);
                }
              }));
        }
        for (Future<?> f : done) {
          f.get();
        }
        assertThat(rejections.asMap()).hasSize(nodes).isEqualTo(map);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
