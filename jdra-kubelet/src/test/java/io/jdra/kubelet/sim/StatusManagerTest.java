package io.jdra.kubelet.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The status manager on a fake clock with a writer that runs on the caller's thread: a status set
 * from inside a write is one set while that write is in flight.
 */
class StatusManagerTest {
  final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  final Ctx ctx = Ctx.forTest(clock).withCancel();
  final List<String> writes = new ArrayList<>();
  final List<Integer> failWith = new ArrayList<>();
  Consumer<String> duringWrite = body -> {};
  final StatusManager manager =
      new StatusManager(
          ctx,
          (ns, name, body) -> {
            writes.add(body);
            duringWrite.accept(body);
            if (!failWith.isEmpty()) {
              throw new KubernetesClientException("injected", failWith.remove(0), null);
            }
          },
          Runnable::run);

  CompletableFuture<Void> set(String body) {
    return manager.setPodStatus("uid-1", "default", "p", body);
  }

  @Test
  void statusesSetDuringAWriteGoOutAsOneWriteOfTheNewest() {
    List<CompletableFuture<Void>> later = new ArrayList<>();
    duringWrite =
        body -> {
          if (body.equals("a")) {
            later.add(set("b"));
            later.add(set("c"));
          }
        };
    CompletableFuture<Void> first = set("a");
    assertThat(writes).containsExactly("a", "c");
    assertThat(first).isCompleted();
    assertThat(later).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
    assertThat(manager.pending()).isZero();
  }

  @Test
  void anUnchangedStatusIsNotSentAgain() {
    set("a");
    CompletableFuture<Void> again = set("a");
    assertThat(again).isCompleted();
    assertThat(writes).containsExactly("a");
    set("b");
    assertThat(writes).containsExactly("a", "b");
  }

  @Test
  void aFailedWriteFailsItsWaitersAndIsRetriedWithBackOff() {
    failWith.add(500);
    failWith.add(500);
    CompletableFuture<Void> f = set("a");
    assertThat(f).isCompletedExceptionally();
    assertThat(manager.pending()).isOne();
    clock.step(Duration.ofMillis(499));
    assertThat(writes).hasSize(1);
    clock.step(Duration.ofMillis(1));
    assertThat(writes).hasSize(2);
    // Second failure: the back-off doubled.
    clock.step(Duration.ofMillis(999));
    assertThat(writes).hasSize(2);
    clock.step(Duration.ofMillis(1));
    assertThat(writes).containsExactly("a", "a", "a");
    assertThat(manager.pending()).isZero();
  }

  @Test
  void aNewerStatusReplacesAPendingRetryAndGoesOutAtOnce() {
    failWith.add(500);
    set("a");
    CompletableFuture<Void> newer = set("b");
    assertThat(newer).isCompleted();
    assertThat(writes).containsExactly("a", "b");
    clock.step(Duration.ofMinutes(1));
    assertThat(writes).containsExactly("a", "b");
  }

  @Test
  void aPodThatIsGoneIsDropped() {
    failWith.add(404);
    CompletableFuture<Void> f = set("a");
    assertThat(f).isCompleted();
    assertThat(f.isCompletedExceptionally()).isFalse();
    assertThat(manager.pending()).isZero();
    clock.step(Duration.ofMinutes(1));
    assertThat(writes).containsExactly("a");
  }

  @Test
  void waitersOfAStoppedNodeFailInsteadOfWaitingForever() {
    List<CompletableFuture<Void>> later = new ArrayList<>();
    duringWrite =
        body -> {
          later.add(set("b"));
          ctx.cancel();
        };
    set("a");
    assertThat(later).singleElement().satisfies(f -> assertThat(f).isCompletedExceptionally());
    assertThat(set("c")).isCompletedExceptionally();
    assertThat(writes).containsExactly("a");
  }

  @Test
  void aForgottenPodIsNotRetried() {
    failWith.add(500);
    set("a");
    manager.forget("uid-1");
    clock.step(Duration.ofMinutes(1));
    assertThat(writes).containsExactly("a");
    assertThat(manager.pending()).isZero();
  }
}
