package io.jdra.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MockQueueTest {
  private final MockQueue<String> q = new MockQueue<>();

  @Test
  void recordsWhatTheCodeUnderTestDid() {
    q.add("a");
    q.add("b");
    q.add("a");
    assertThat(q.get()).isEqualTo("a");
    q.addAfter("c", Duration.ofSeconds(10));
    q.addAfter("c", Duration.ofSeconds(5));
    q.addAfter("c", Duration.ofSeconds(7));
    q.addRateLimited("a");
    q.addRateLimited("a");
    q.done("x");

    assertThat(q.state())
        .isEqualTo(
            new MockQueue.State<>(
                List.of("b"),
                List.of("a"),
                List.of("x"),
                List.of(new MockQueue.Delayed<>("c", Duration.ofSeconds(5))),
                Map.of("a", 2),
                0,
                0));
    assertThat(q.numRequeues("a")).isEqualTo(2);
  }

  @Test
  void getNeverBlocksAndLaterItemsMoveOnlyWhenAsked() {
    assertThat(q.get()).isNull();
    q.addAfter("a", Duration.ofSeconds(1));
    assertThat(q.len()).isZero();
    q.moveLaterToReady();
    assertThat(q.get()).isEqualTo("a");
    q.done("a");
    q.addAfter("b", Duration.ofSeconds(1));
    q.cancelLater("b");
    q.forget("a");
    q.shutDown();
    assertThat(q.shuttingDown()).isTrue();
    assertThat(q.state().later()).isEmpty();
    assertThat(q.state().failures()).isEmpty();
    assertThat(q.state().shutDownCalled()).isEqualTo(1);
  }
}
