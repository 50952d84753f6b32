package io.jdra.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.runtime.clock.FakeClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CtxTest {
  private final Ctx root = Ctx.forTest(new FakeClock());

  @Test
  void cancellingAChildLeavesTheParentRunning() {
    Ctx child = root.withCancel();
    child.cancel();
    assertThat(child.isCancelled()).isTrue();
    assertThat(child.done()).isCompleted();
    assertThat(root.isCancelled()).isFalse();
  }

  @Test
  void cancellingTheParentCancelsChildrenAndValueChildrenShareIt() {
    Ctx child = root.withCancel();
    Ctx grandChild = child.withCancel().withValues("pod", "ns/p");
    List<String> ran = new ArrayList<>();
    grandChild.onCancel(() -> ran.add("grandchild"));
    child.onCancel(() -> ran.add("child"));

    root.cancel();

    assertThat(grandChild.isCancelled()).isTrue();
    assertThat(ran).containsExactlyInAnyOrder("child", "grandchild");
  }

  @Test
  void onCancelRunsAtOnceWhenAlreadyCancelledAndOnlyOnce() {
    List<String> ran = new ArrayList<>();
    root.onCancel(() -> ran.add("before"));
    root.cancel();
    root.cancel();
    root.onCancel(() -> ran.add("after"));
    assertThat(ran).containsExactly("before", "after");
  }

  @Test
  void closedRegistrationsDoNotRun() {
    List<String> ran = new ArrayList<>();
    Ctx.Registration r = root.onCancel(() -> ran.add("x"));
    r.close();
    root.cancel();
    assertThat(ran).isEmpty();
  }

  @Test
  void withTimeoutCancelsWhenTheClockPassesAndDropsItsTimerWhenCancelledEarlier() {
    FakeClock clock = new FakeClock();
    Ctx ctx = Ctx.forTest(clock);
    Ctx timed = ctx.withTimeout(java.time.Duration.ofSeconds(10));
    clock.step(java.time.Duration.ofSeconds(9));
    assertThat(timed.isCancelled()).isFalse();
    clock.step(java.time.Duration.ofSeconds(1));
    assertThat(timed.isCancelled()).isTrue();
    assertThat(ctx.isCancelled()).isFalse();

    Ctx early = ctx.withTimeout(java.time.Duration.ofSeconds(10));
    early.cancel();
    assertThat(clock.hasWaiters()).isFalse();
  }

  @Test
  void sleepReturnsFalseOnceCancelled() throws InterruptedException {
    Ctx ctx = root.withCancel();
    ctx.cancel();
    assertThat(ctx.sleep(java.time.Duration.ofHours(1))).isFalse();
  }

  @Test
  void sleepReturnsTrueWhenTheFakeClockPasses() throws Exception {
    FakeClock clock = new FakeClock();
    Ctx ctx = Ctx.forTest(clock);
    var result = new java.util.concurrent.CompletableFuture<Boolean>();
    Thread t =
        Thread.ofPlatform()
            .start(() -> {
              try {
                result.complete(ctx.sleep(java.time.Duration.ofSeconds(5)));
              } catch (InterruptedException e) {
                result.completeExceptionally(e);
              }
            });
    while (!clock.hasWaiters()) {
      Thread.onSpinWait();
    }
    clock.step(java.time.Duration.ofSeconds(5));
    assertThat(result.get()).isTrue();
    t.join();
  }
}
