package io.jdra.allocator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One allocator serves many nodes at once, as the scheduler's parallel Filter calls do. */
class ConcurrencyTest {
  @Test
  void oneAllocatorManyNodesInParallel() throws Exception {
    Scenarios.Scenario s = Scenarios.plain(50);
    Allocator allocator = s.allocator();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<String>> results = new ArrayList<>();
      for (int round = 0; round < 4; round++) {
        for (int n = 0; n < 50; n++) {
          String node = "node-" + n;
          results.add(
              pool.submit(() -> {
                AllocationOutcome o =
                    allocator.allocate(
                        new NodeBuilder().withNewMetadata().withName(node).endMetadata().build(),
                        s.claims(),
                        Deadline.none());
                return Fixtures.picks(((AllocationOutcome.Allocated) o).results().get(0)).get(0);
              }));
        }
      }
      for (int i = 0; i < results.size(); i++) {
        assertThat(results.get(i).get()).isEqualTo("r=node-" + (i % 50) + "/dev-0");
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
