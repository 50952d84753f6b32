package io.jdra.runtime.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FakeClockTest {
  private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
  private final FakeClock clock = new FakeClock(t0);
  private final List<String> fired = new ArrayList<>();

  @Test
  void stepFiresDueTasksInTimeOrderSeeingTheirOwnDueTime() {
    clock.schedule(Duration.ofSeconds(3), () -> fired.add("c@" + clock.since(t0).toSeconds()));
    clock.schedule(Duration.ofSeconds(1), () -> fired.add("a@" + clock.since(t0).toSeconds()));
    clock.schedule(Duration.ofSeconds(1), () -> fired.add("b@" + clock.since(t0).toSeconds()));
    clock.schedule(Duration.ofSeconds(10), () -> fired.add("late"));

    clock.step(Duration.ofSeconds(5));

    assertThat(fired).containsExactly("a@1", "b@1", "c@3");
    assertThat(clock.now()).isEqualTo(t0.plusSeconds(5));
    assertThat(clock.waiters()).isEqualTo(1);
    assertThat(clock.waiterTimes()).containsExactly(t0.plusSeconds(10));
  }

  @Test
  void tasksScheduledByTasksFireWithinTheSameStepWhenDue() {
    clock.schedule(
        Duration.ofSeconds(1),
        () -> clock.schedule(Duration.ofSeconds(1), () -> fired.add("second")));

    clock.step(Duration.ofSeconds(2));

    assertThat(fired).containsExactly("second");
    assertThat(clock.hasWaiters()).isFalse();
  }

  @Test
  void cancelledTimersDoNotFire() {
    Clock.Timer t = clock.schedule(Duration.ofSeconds(1), () -> fired.add("x"));
    assertThat(t.cancel()).isTrue();
    assertThat(t.cancel()).isFalse();
    clock.step(Duration.ofSeconds(2));
    assertThat(fired).isEmpty();
  }

  @Test
  void zeroDelayFiresOnTheNextStepEvenOfZero() {
    clock.schedule(Duration.ZERO, () -> fired.add("now"));
    assertThat(fired).isEmpty();
    clock.step(Duration.ZERO);
    assertThat(fired).containsExactly("now");
  }

  @Test
  void stepBackwardsIsRefused() {
    assertThatThrownBy(() -> clock.step(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
