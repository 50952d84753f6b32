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
import io.jdra.scheduler.framework.QueueingHint;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import io.jdra.scheduler.plugins.dynamicresources.DynamicResources;
import io.jdra.scheduler.plugins.nodeaffinity.NodeAffinity;
import io.jdra.scheduler.plugins.noderesources.Fit;
import io.jdra.testing.objects.Make;
import io.jdra.testing.objects.PodWrapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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

  /**
   * The queue asks DynamicResources' claim hint only about the pods its narrowing names; the pods a
   * claim event moves must be exactly those the hint says QUEUE for, as when every waiting pod is
   * asked (upstream). Random pods (named claims shared between pods, generated claims, two
   * namespaces) wait; random claim events (creates, updates, deallocations, deletions) move them.
   */
  @Test
  void claimEvents_moveExactlyThePodsTheHintQueues() throws Exception {
    Random rnd = new Random(7);
    String[] namespaces = {"ns", "other"};
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      String ns = namespaces[i % 2];
      PodWrapper w = Make.pod("p" + i).namespace(ns).uid("u" + i);
      if (i % 3 == 0) {
        w.claimFromTemplate("gpu", "t").resourceClaimStatus("gpu", "gen-" + i);
        dra.claimChanged(
            Make.claim("gen-" + i).namespace(ns).uid("g" + i).ownerPod("p" + i, "u" + i).obj());
      } else {
        w.claim("gpu", "c" + rnd.nextInt(7));
      }
      pods.add(w.obj());
    }
    for (String ns : namespaces) {
      for (int c = 0; c < 7; c++) {
        dra.claimChanged(Make.claim("c" + c).namespace(ns).uid(ns + c).obj());
      }
    }
    for (Pod pod : pods) {
      q.add(pod);
      QueuedPodInfo p = popRejectedBy(DynamicResources.NAME);
      q.addUnschedulableIfNotPresent(p);
      q.done(p.uid());
    }
    assertThat(q.unschedulablePodKeys()).hasSize(60);
    QueueingHint.Fn hint = claimHint();
    Map<String, Pod> byKey = new HashMap<>();
    pods.forEach(
        p -> byKey.put(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), p));

    int narrowedMoves = 0;
    for (int e = 0; e < 200; e++) {
      String ns = namespaces[rnd.nextInt(2)];
      String name = rnd.nextBoolean() ? "c" + rnd.nextInt(7) : "gen-" + 3 * rnd.nextInt(20);
      ResourceClaim plain =
          Make.claim(name).namespace(ns).uid("x").request("gpu.example.com").obj();
      ResourceClaim allocated =
          Make.claim(name)
              .namespace(ns)
              .uid("x")
              .request("gpu.example.com")
              .allocatedOn("n", "gpu.example.com", "gpu-0")
              .obj();
      ResourceClaim[][] shapes = {
        {null, plain},
        {plain, plain},
        {plain, allocated},
        {allocated, plain},
        {allocated, null},
        {plain, null}
      };
      ResourceClaim[] ev = shapes[rnd.nextInt(shapes.length)];
      List<String> before = q.unschedulablePodKeys();
      List<String> expected = new ArrayList<>();
      for (String key : before) {
        if (hint.hint(byKey.get(key), ev[0], ev[1]) == QueueingHint.QUEUE) {
          expected.add(key);
        }
      }
      int action =
          ev[0] == null
              ? ClusterEvent.ADD
              : ev[1] == null ? ClusterEvent.DELETE : ClusterEvent.UPDATE_OTHER;
      q.moveAllToActiveOrBackoffQueue(
          ClusterEvent.of(EventResource.RESOURCE_CLAIM, action, "x"), ev[0], ev[1]);

      List<String> moved = new ArrayList<>(before);
      moved.removeAll(q.unschedulablePodKeys());
      assertThat(moved)
          .as("event %d: %s -> %s %s/%s", e, ev[0] != null, ev[1] != null, ns, name)
          .containsExactlyElementsOf(expected);
      List<String> queued = new ArrayList<>(q.activePodKeys());
      queued.addAll(q.backoffPodKeys());
      assertThat(queued).containsAll(moved);
      if (ev[1] != null && !expected.isEmpty() && expected.size() < before.size()) {
        narrowedMoves++;
      }
      // Back into the pool, so that every event is asked about all 60 pods.
      clock.step(Duration.ofSeconds(11));
      q.flushBackoffQCompleted();
      for (QueuedPodInfo p = q.tryPop(); p != null; p = q.tryPop()) {
        p.unschedulablePlugins().add(DynamicResources.NAME);
        q.addUnschedulableIfNotPresent(p);
        q.done(p.uid());
      }
      assertThat(q.unschedulablePodKeys()).hasSize(60);
    }
    assertThat(narrowedMoves).as("events that moved some pods but not all").isGreaterThan(30);
  }

  private QueueingHint.Fn claimHint() {
    return TestFrameworks.defaultProfile(dra, null, par)
        .eventsToRegister()
        .get(DynamicResources.NAME)
        .stream()
        .filter(h -> h.event().resource() == EventResource.RESOURCE_CLAIM)
        .findFirst()
        .orElseThrow()
        .hint();
  }
}
