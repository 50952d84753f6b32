package io.jdra.scheduler.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.scheduler.TestFrameworks;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.ClusterEvent.EventResource;
import io.jdra.scheduler.framework.Parallelizer;
import io.jdra.scheduler.framework.QueuedPodInfo;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import io.jdra.scheduler.queue.PriorityQueue;
import io.jdra.testing.objects.Make;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The scheduling queue's side of a claim-template burst: {@value #WAITING} pods wait in the
 * unschedulable pool, gated by DynamicResources until the ResourceClaim controller has made their
 * claims, while some other pod is in flight; every claim event (the controller's create, the
 * scheduler's finalizer and status writes, two or three per pod) asks each waiting pod's hint.
 *
 * <ul>
 *   <li>{@code claimUpdate}: a ResourceClaim update of another pod's claim (no waiting pod moves).
 *   <li>{@code assignedPodAdd}: a bound pod appears (no plugin registered for that event).
 * </ul>
 *
 * Run: {@code scripts/bench jdra-scheduler -f 1 -wi 3 -i 5 -bm sample QueueBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class QueueBench {
  static final int WAITING = 200;

  Parallelizer parallelizer;
  PriorityQueue queue;
  ResourceClaim oldClaim;
  ResourceClaim newClaim;
  Pod bound;
  long n;

  @Setup(Level.Trial)
  public void setup() {
    Ctx ctx = Ctx.forTest(new FakeClock());
    DraManager dra = new DraManager(AllocatorFeatures.defaults(), true);
    parallelizer = new Parallelizer(1);
    queue = new PriorityQueue(ctx, TestFrameworks.defaultProfile(dra, null, parallelizer));
    queue.add(Make.pod("in-flight").namespace("ns").uid("in-flight").obj());
    QueuedPodInfo inFlight = queue.tryPop();
    if (inFlight == null) {
      throw new IllegalStateException("the in-flight pod was not queued");
    }
    for (int i = 0; i < WAITING; i++) {
      queue.add(
          Make.pod("waiting-" + i)
              .namespace("ns")
              .uid("waiting-" + i)
              .claimFromTemplate("gpu", "template")
              .container("c", "gpu")
              .obj());
    }
    if (queue.pendingCounts().gated() != WAITING) {
      throw new IllegalStateException("expected every waiting pod gated: " + queue.pendingCounts());
    }
    oldClaim =
        Make.claim("other-claim")
            .namespace("ns")
            .uid("other-claim")
            .resourceVersion("1")
            .request("gpu.example.com")
            .obj();
    newClaim =
        new ResourceClaimBuilder(oldClaim)
            .editMetadata()
            .withResourceVersion("2")
            .addToFinalizers("resource.kubernetes.io/delete-protection")
            .endMetadata()
            .build();
    bound = Make.pod("bound").namespace("ns").uid("bound").nodeName("node-1").obj();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    parallelizer.close();
  }

  @Benchmark
  public void claimUpdate() {
    queue.moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(
            EventResource.RESOURCE_CLAIM, ClusterEvent.UPDATE_OTHER, "ResourceClaimUpdate"),
        oldClaim,
        newClaim);
    // Keep the in-flight event list from growing without bound across invocations.
    if (++n % 1024 == 0) {
      queue.done("in-flight");
      queue.add(Make.pod("in-flight").namespace("ns").uid("in-flight").obj());
      queue.tryPop();
    }
  }

  @Benchmark
  public void assignedPodAdd() {
    queue.moveAllToActiveOrBackoffQueue(
        ClusterEvent.of(EventResource.ASSIGNED_POD, ClusterEvent.ADD, "AssignedPodAdd"),
        null,
        bound);
    if (++n % 1024 == 0) {
      queue.done("in-flight");
      queue.add(Make.pod("in-flight").namespace("ns").uid("in-flight").obj());
      queue.tryPop();
    }
  }
}
