package io.jdra.runtime.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.testing.apiserver.WithApiServer;
import io.jdra.testing.objects.Make;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The API recorder against the embedded API server; time on a fake clock. */
@WithApiServer
class EventRecorderTest {
  private final FakeClock clock = new FakeClock();
  private final Ctx ctx = Ctx.forTest(clock);

  /** The events about one object (tests share the namespace). */
  private static List<Event> events(KubernetesClient client, String regardingName) {
    return client.events().v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> e.getRegarding().getName().equals(regardingName))
        .toList();
  }

  @Test
  void writesEventsAndAggregatesRepeatsIntoASeries(KubernetesClient client) {
    Pod pod = client.resource(Make.pod("p").namespace("default").uid("u1").obj()).create();
    ResourceClaim related = Make.claim("c").namespace("default").obj();
    EventRecorder recorder =
        EventRecorder.create(
            client, new EventRecorderOptions("resource-claim-controller", "host-1"), ctx);
    try {
      for (int i = 0; i < 3; i++) {
        recorder.eventf(
            pod,
            related,
            EventRecorder.WARNING,
            "FailedResourceClaimCreation",
            "Create",
            "PodResourceClaim %s: %s",
            "gpu",
            "template missing");
      }
      recorder.eventf(pod, null, "Bogus", "X", "Y", "dropped");
      await()
          .untilAsserted(() -> {
            List<Event> evs = events(client, "p");
            assertThat(evs).hasSize(1);
            assertThat(evs.get(0).getSeries()).isNotNull();
            assertThat(evs.get(0).getSeries().getCount()).isEqualTo(2);
          });
      Event ev = events(client, "p").get(0);
      assertThat(ev.getMetadata().getName()).startsWith("p.");
      assertThat(ev.getNote()).isEqualTo("PodResourceClaim gpu: template missing");
      assertThat(ev.getType()).isEqualTo("Warning");
      assertThat(ev.getReason()).isEqualTo("FailedResourceClaimCreation");
      assertThat(ev.getAction()).isEqualTo("Create");
      assertThat(ev.getRegarding().getKind()).isEqualTo("Pod");
      assertThat(ev.getRegarding().getUid()).isEqualTo(pod.getMetadata().getUid());
      assertThat(ev.getRelated().getName()).isEqualTo("c");
      assertThat(ev.getReportingController()).isEqualTo("resource-claim-controller");
      assertThat(ev.getReportingInstance()).isEqualTo("host-1");

      // The third repeat only counted; it is written when the series is refreshed.
      clock.step(Duration.ofMinutes(30));
      await()
          .untilAsserted(
              () -> assertThat(events(client, "p").get(0).getSeries().getCount()).isEqualTo(3));
    } finally {
      recorder.close();
    }
  }

  @Test
  void closeFlushesAndLeavesNoThread(KubernetesClient client) {
    Pod pod = Make.pod("q").namespace("default").obj();
    EventRecorder recorder =
        EventRecorder.create(client, new EventRecorderOptions("test-controller", ""), ctx);
    for (int i = 0; i < 5; i++) {
      recorder.eventf(pod, null, EventRecorder.NORMAL, "Reason" + i, "Act", "note");
      clock.step(Duration.ofMillis(1)); // event names carry the time
    }
    recorder.close();
    recorder.close();

    assertThat(events(client, "q")).hasSize(5);
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().equals("jdra-event-recorder") && t.isAlive());
    assertThat(clock.hasWaiters()).as("refresh timers cancelled").isFalse();
    recorder.eventf(pod, null, EventRecorder.NORMAL, "After", "Act", "dropped");
    assertThat(((ApiEventRecorder) recorder).dropped()).isEqualTo(1);
  }

  @Test
  void theFakeRecordsInMemory() {
    FakeEventRecorder fake = EventRecorder.fake();
    fake.eventf(Make.pod("p").namespace("ns").obj(), null, "Normal", "Started", "Run", "n %d", 1);
    assertThat(fake.strings()).containsExactly("Normal Started n 1");
    assertThat(fake.events().get(0).regarding()).isEqualTo("ns/p");
  }
}
