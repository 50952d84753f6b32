package io.jdra.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.runtime.clock.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DelayingQueueTest {
  private final FakeClock clock = new FakeClock();
  private final DelayingQueue<String> q = WorkQueues.delaying("test", clock, null);

  private List<String> drain() {
    List<String> out = new ArrayList<>();
    while (q.len() > 0) {
      String s = q.get();
      out.add(s);
      q.done(s);
    }
    return out;
  }

  @Test
  void itemsAppearWhenTheirDelayPassesInReadyTimeOrder() {
    q.addAfter("late", Duration.ofSeconds(3));
    q.addAfter("early", Duration.ofSeconds(1));
    q.addAfter("now", Duration.ZERO);
    assertThat(drain()).containsExactly("now");

    clock.step(Duration.ofMillis(999));
    assertThat(q.len()).isZero();
    clock.step(Duration.ofMillis(1));
    assertThat(drain()).containsExactly("early");
    clock.step(Duration.ofSeconds(5));
    assertThat(drain()).containsExactly("late");
  }

  @Test
  void addingAWaitingItemAgainKeepsTheEarlierTime() {
    q.addAfter("a", Duration.ofSeconds(10));
    q.addAfter("a", Duration.ofSeconds(2));
    q.addAfter("a", Duration.ofSeconds(5));
    assertThat(clock.waiters()).isEqualTo(1);

    clock.step(Duration.ofSeconds(2));
    assertThat(drain()).containsExactly("a");
    clock.step(Duration.ofSeconds(20));
    assertThat(q.len()).as("the later timers were replaced, not kept").isZero();
  }

  @Test
  void aDelayedItemAlreadyQueuedIsNotDuplicated() {
    q.add("a");
    q.addAfter("a", Duration.ofSeconds(1));
    clock.step(Duration.ofSeconds(1));
    assertThat(drain()).containsExactly("a");
  }

  @Test
  void shutDownDropsWaitingItems() {
    q.addAfter("a", Duration.ofSeconds(1));
    q.shutDown();
    assertThat(clock.hasWaiters()).isFalse();
    clock.step(Duration.ofSeconds(1));
    assertThat(q.get()).isNull();
  }
}
