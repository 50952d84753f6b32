package io.jdra.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SteadyStateTest {
  private static final long LATER = System.nanoTime() + Duration.ofDays(1).toNanos();

  @Test
  void theWaiterIsLetThroughOncePerFullBatch() throws InterruptedException {
    SteadyState.BatchCounter counter = new SteadyState.BatchCounter(3);
    counter.add();
    counter.add();
    assertThat(counter.awaitBatch(System.nanoTime()))
        .as("two of three pods: no batch before the deadline")
        .isFalse();
    counter.add();
    assertThat(counter.awaitBatch(LATER)).isTrue();
    for (int i = 0; i < 6; i++) {
      counter.add();
    }
    assertThat(counter.awaitBatch(LATER)).as("batches that end while nobody waits count").isTrue();
    assertThat(counter.awaitBatch(LATER)).isTrue();
    assertThat(counter.count()).isEqualTo(9);
  }

  @Test
  void aPassedDeadlineEndsTheWaitEvenWithABatchDone() throws InterruptedException {
    SteadyState.BatchCounter counter = new SteadyState.BatchCounter(1);
    counter.add();
    assertThat(counter.awaitBatch(System.nanoTime() - 1)).isFalse();
  }
}
