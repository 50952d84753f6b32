package io.jdra.scheduler.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.scheduler.TestFrameworks;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.ClusterEvent.EventResource;
import io.jdra.scheduler.framework.Parallelizer;
import io.jdra.scheduler.framework.QueuedPodInfo;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResources;
import io.jdra.scheduler.plugins.nodeaffinity.NodeAffinity;
import io.jdra.scheduler.plugins.noderesources.Fit;
import io.jdra.testing.objects.Make;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PriorityQueueTest {
  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final Ctx ctx = Ctx.forTest(clock);
  private final DraManager dra = new DraManager(AllocatorFeatures.defaults(), true);
  private final Parallelizer par = new Parallelizer(1);
  private final PriorityQueue q =
      new PriorityQueue(ctx, TestFrameworks.defaultProfile(dra, null, par));

  @AfterEach
  void close() {
    par.close();
  }

  private static Pod pod(String name, int priority) {
    return new PodBuilder(Make.pod(name).namespace("ns").uid("uid-" + name).obj())
        .editSpec()
        .withPriority(priority)
        .endSpec()
        .build();
  }

  private QueuedPodInfo popRejectedBy(String plugin) {
    QueuedPodInfo p = q.tryPop();
    p.unschedulablePlugins().add(plugin);
    return p;
  }

  @Test
  void activeQ_ordersByPriorityThenArrival() {
    q.add(pod("low", 0));
    clock.step(Duration.ofMillis(1));
    q.add(pod("high", 10));
    clock.step(Duration.ofMillis(1));
    q.add(pod("low2", 0));
    assertThat(q.activePodKeys()).containsExactly("ns/high", "ns/low", "ns/low2");
  }

  @Test
  void backoff_doublesFromOneSecondToTenSeconds() {
    assertThat(q.backoffDuration(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(q.backoffDuration(2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(q.backoffDuration(4)).isEqualTo(Duration.ofSeconds(8));
    assertThat(q.backoffDuration(5)).isEqualTo(Duration.ofSeconds(10));
    assertThat(q.backoffDuration(50)).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void error_goesThroughBackoffQ() {
    q.add(pod("p", 0));
    QueuedPodInfo p = q.tryPop();
    q.addUnschedulableIfNotPresent(p); // no rejecting plugin: an error
    q.done(p.uid());
    assertThat(q.backoffPodKeys()).containsExactly("ns/p");
    clock.step(Duration.ofMillis(999));
    q.flushBackoffQCompleted();
    assertThat(q.activePodKeys()).isEmpty();
    clock.step(Duration.ofMillis(1));
    q.flushBackoffQCompleted();
    assertThat(q.activePodKeys()).containsExactly("ns/p");
  }

  @Test
  void unschedulable_movedOnlyByEventsOfTheRejectingPlugin() {
    q.add(pod("p", 0));
    QueuedPodInfo p = popRejectedBy(Fit.NAME);
    q.addUnschedulableIfNotPresent(p);
    q.done(p.uid());
    assertThat(q.unschedulablePodKeys()).containsExactly("ns/p");

    // A label change is not something NodeResourcesFit waits for.
    Node n = Make.node("n").obj();
    q.moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(EventResource.NODE, ClusterEvent.UPDATE_NODE_LABEL, "x"), n, n);
    assertThat(q.unschedulablePodKeys()).containsExactly("ns/p");

    clock.step(Duration.ofSeconds(2));
    q.moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(EventResource.NODE, ClusterEvent.ADD, "NodeAdd"), null, n);
    assertThat(q.activePodKeys()).containsExactly("ns/p");
  }

  @Test
  void unschedulable_movedToBackoffWhileBackingOff() {
    q.add(pod("p", 0));
    QueuedPodInfo p = popRejectedBy(Fit.NAME);
    q.addUnschedulableIfNotPresent(p);
    q.done(p.uid());
    q.moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(EventResource.NODE, ClusterEvent.ADD, "NodeAdd"),
        null,
        Make.node("n").obj());
    assertThat(q.backoffPodKeys()).containsExactly("ns/p");
  }

  @Test
  void eventDuringTheAttempt_isNotLost() {
    q.add(pod("p", 0));
    QueuedPodInfo p = popRejectedBy(NodeAffinity.NAME);
    q.moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(EventResource.NODE, ClusterEvent.ADD, "NodeAdd"),
        null,
        Make.node("n").obj());
    q.addUnschedulableIfNotPresent(p);
    q.done(p.uid());
    assertThat(q.unschedulablePodKeys()).isEmpty();
    assertThat(q.backoffPodKeys()).containsExactly("ns/p");
  }

  @Test
  void leftover_flushedAfterFiveMinutes() {
    q.add(pod("p", 0));
    QueuedPodInfo p = popRejectedBy(Fit.NAME);
    q.addUnschedulableIfNotPresent(p);
    q.done(p.uid());
    clock.step(Duration.ofMinutes(4));
    q.flushUnschedulablePodsLeftover();
    assertThat(q.unschedulablePodKeys()).containsExactly("ns/p");
    clock.step(Duration.ofMinutes(1));
    q.flushUnschedulablePodsLeftover();
    assertThat(q.activePodKeys()).containsExactly("ns/p");
  }

  @Test
  void preEnqueue_gatesPodUntilItsClaimExists() {
    Pod pod = Make.pod("p").namespace("ns").uid("u").claim("gpu", "my-claim").obj();
    q.add(pod);
    assertThat(q.activePodKeys()).isEmpty();
    assertThat(q.pendingCounts().gated()).isEqualTo(1);

    ResourceClaim other =
        Make.claim("other").namespace("ns").uid("c0").request("gpu.example.com").obj();
    dra.claimChanged(other);
    q.moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(EventResource.RESOURCE_CLAIM, ClusterEvent.ADD, "x"), null, other);
    assertThat(q.pendingCounts().gated()).isEqualTo(1);

    ResourceClaim claim =
        Make.claim("my-claim").namespace("ns").uid("c1").request("gpu.example.com").obj();
    dra.claimChanged(claim);
    q.moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(EventResource.RESOURCE_CLAIM, ClusterEvent.ADD, "x"), null, claim);
    assertThat(q.activePodKeys()).containsExactly("ns/p");
  }

  @Test
  void claimDeallocation_requeuesPodsRejectedByDynamicResources() {
    q.add(pod("p", 0));
    QueuedPodInfo p = popRejectedBy(DynamicResources.NAME);
    q.addUnschedulableIfNotPresent(p);
    q.done(p.uid());
    clock.step(Duration.ofSeconds(5));
    ResourceClaim allocated =
        Make.claim("c")
            .namespace("other")
            .uid("c")
            .request("gpu.example.com")
            .allocatedOn("n", "gpu.example.com", "gpu-0")
            .obj();
    ResourceClaim freed =
        Make.claim("c").namespace("other").uid("c").request("gpu.example.com").obj();
    q.moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(EventResource.RESOURCE_CLAIM, ClusterEvent.UPDATE_OTHER, "x"),
        allocated,
        allocated);
    assertThat(q.unschedulablePodKeys()).containsExactly("ns/p");
    q.moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(EventResource.RESOURCE_CLAIM, ClusterEvent.UPDATE_OTHER, "x"),
        allocated,
        freed);
    assertThat(q.activePodKeys()).containsExactly("ns/p");
  }

  @Test
  void delete_removesFromEveryPart() {
    q.add(pod("a", 0));
    q.add(pod("b", 0));
    QueuedPodInfo a = popRejectedBy(Fit.NAME);
    q.addUnschedulableIfNotPresent(a);
    q.done(a.uid());
    q.delete(pod("a", 0));
    q.delete(pod("b", 0));
    assertThat(q.pendingCounts()).isEqualTo(new SchedulingQueue.PendingCounts(0, 0, 0, 0));
  }
}
