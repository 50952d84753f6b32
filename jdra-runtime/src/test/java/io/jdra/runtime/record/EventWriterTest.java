package io.jdra.runtime.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.testing.objects.Make;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The recorder's concurrent writes against a sink that holds or fails them: objects in parallel,
 * one object's writes in order, the bound on pending writes, retries on the clock, close.
 */
class EventWriterTest {
  /** Retries wait 10 s plus up to 25 %. */
  private static final Duration AFTER_RETRY_DELAY = Duration.ofMillis(12_600);

  private final FakeClock clock = new FakeClock();
  private final Ctx ctx = Ctx.forTest(clock);
  private final Sink sink = new Sink();
  private ApiEventRecorder recorder;

  /** Records calls as "create NAME" or "patch NAME COUNT"; can hold them or fail them. */
  private static final class Sink implements EventSink {
    private final List<String> calls = new ArrayList<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile Function<String, RuntimeException> failure = call -> null;

    @Override
    public void create(Event ev) {
      call("create " + regarding(ev) + series(ev));
    }

    @Override
    public void patch(Event ev, String patch) {
      call("patch " + regarding(ev) + series(ev));
    }

    private void call(String what) {
      synchronized (this) {
        calls.add(what);
      }
      try {
        gate.await();
      } catch (InterruptedException e) {
        throw new KubernetesClientException("interrupted", e);
      }
      RuntimeException e = failure.apply(what);
      if (e != null) {
        throw e;
      }
    }

    synchronized List<String> calls() {
      return List.copyOf(calls);
    }

    private static String regarding(Event ev) {
      return ev.getRegarding().getName();
    }

    private static String series(Event ev) {
      return ev.getSeries() == null ? "" : " " + ev.getSeries().getCount();
    }
  }

  private static KubernetesClientException noAnswer() {
    return new KubernetesClientException("connect", new ConnectException("Connection refused"));
  }

  private ApiEventRecorder recorder(int bufferSize) {
    recorder = new ApiEventRecorder(sink, new EventRecorderOptions("c", "i", bufferSize), ctx);
    return recorder;
  }

  private void event(String pod) {
    Pod p = Make.pod(pod).namespace("ns").uid(pod + "-uid").obj();
    recorder.eventf(p, null, EventRecorder.NORMAL, "Scheduled", "Binding", "on node-1");
    clock.step(Duration.ofMillis(1));
  }

  private int pending() {
    return recorder.writer().pending();
  }

  @AfterEach
  void close() {
    sink.gate.countDown();
    recorder.close();
  }

  @Test
  void objectsAreWrittenConcurrently_andOneObjectsWritesInOrder() {
    recorder(1000);
    CountDownLatch gate = new CountDownLatch(1);
    sink.gate = gate;
    event("a");
    event("b");
    // b's create is under way while a's is held: one write does not wait for another object's.
    await().until(() -> sink.calls().size() == 2);
    assertThat(sink.calls()).containsExactlyInAnyOrder("create a", "create b");

    event("a"); // the repeat makes a series: its patch must wait for a's create
    await().until(() -> pending() == 3);
    assertThat(sink.calls()).hasSize(2);

    gate.countDown();
    await().until(() -> pending() == 0);
    List<String> calls = sink.calls();
    assertThat(calls).containsExactlyInAnyOrder("create a", "create b", "patch a 2");
    assertThat(calls.indexOf("patch a 2")).isGreaterThan(calls.indexOf("create a"));
  }

  @Test
  void pendingWritesAreBounded_beyondTheBoundEventsAreDropped() {
    recorder(2);
    CountDownLatch gate = new CountDownLatch(1);
    sink.gate = gate;
    event("a");
    await().until(() -> pending() == 1);
    event("b");
    await().until(() -> pending() == 2);
    event("c"); // returns at once although two writes hang
    await().until(() -> recorder.dropped() == 1);

    gate.countDown();
    await().until(() -> pending() == 0);
    assertThat(sink.calls()).containsExactlyInAnyOrder("create a", "create b");
  }

  @Test
  void aWriteWithoutAnswerIsRetriedOnTheClock_laterWritesOfItsObjectWait() {
    recorder(1000);
    List<String> failing = new ArrayList<>(List.of("create a", "create a"));
    sink.failure =
        call -> {
          synchronized (failing) {
            return failing.remove(call) ? noAnswer() : null;
          }
        };
    event("a");
    await().until(() -> recorder.writer().waitingForRetry() == 1);
    event("a"); // the series patch queues behind the create
    await().until(() -> pending() == 2);
    assertThat(sink.calls()).containsExactly("create a");

    clock.step(Duration.ofSeconds(9)); // not yet: the retry comes 10 s to 12.5 s later
    assertThat(sink.calls()).hasSize(1);
    clock.step(AFTER_RETRY_DELAY.minusSeconds(9));
    await().until(() -> sink.calls().size() == 2 && recorder.writer().waitingForRetry() == 1);
    clock.step(AFTER_RETRY_DELAY);
    await().until(() -> pending() == 0);
    assertThat(sink.calls()).containsExactly("create a", "create a", "create a", "patch a 2");
  }

  @Test
  void givesUpAfterTwelveAttempts() {
    recorder(1000);
    sink.failure = call -> noAnswer();
    event("a");
    for (int attempt = 1; attempt < EventWriter.MAX_TRIES; attempt++) {
      int made = attempt;
      await().until(() -> sink.calls().size() == made && recorder.writer().waitingForRetry() == 1);
      clock.step(AFTER_RETRY_DELAY);
    }
    await().until(() -> pending() == 0);
    assertThat(sink.calls()).hasSize(12);
    assertThat(recorder.writer().waitingForRetry()).isZero();
  }

  @Test
  void anAnswerIsFinal_aPatchOfAVanishedEventCreatesIt() {
    recorder(1000);
    sink.failure =
        call ->
            switch (call) {
              case "create b" -> new KubernetesClientException("Internal error", 500, null);
              case "patch a 2" -> new KubernetesClientException("not found", 404, null);
              default -> null;
            };
    event("a");
    event("b");
    await().until(() -> pending() == 0);
    event("a");
    await().until(() -> pending() == 0);
    assertThat(sink.calls())
        .containsExactlyInAnyOrder("create a", "create b", "patch a 2", "create a 2");
    assertThat(recorder.writer().waitingForRetry()).isZero();
  }

  @Test
  void closeWritesWhatIsUnderWay_dropsRetries_andLeavesNoThreadOrTimer() {
    recorder(1000);
    sink.failure = call -> call.equals("create a") ? noAnswer() : null;
    event("a");
    await().until(() -> recorder.writer().waitingForRetry() == 1);
    event("b");
    recorder.close();

    assertThat(sink.calls()).containsExactlyInAnyOrder("create a", "create b");
    assertThat(recorder.dropped()).isEqualTo(1);
    assertThat(clock.hasWaiters()).as("retry and refresh timers cancelled").isFalse();
    assertThat(pending()).as("no write left, so no writer thread").isZero();
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().equals("jdra-event-recorder") && t.isAlive());
  }
}
