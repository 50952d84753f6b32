package io.jdra.scheduler.bench;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.api.features.FeatureGates;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.scheduler.Profiles;
import io.jdra.scheduler.SchedulingAlgorithm;
import io.jdra.scheduler.TestFrameworks;
import io.jdra.scheduler.cache.Snapshot;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.Framework;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.Parallelizer;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
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
 * The scheduler_perf claim-template shape: 500 nodes with 10 devices each, half of them allocated
 * to existing claims; a pod with one claim for one device.
 *
 * <ul>
 *   <li>{@code filterOneNode}: all Filter plugins for one node (the allocator call dominates);
 *       target median < 20 us.
 *   <li>{@code schedulingCycle}: PreFilter (allocated-device snapshot, allocator creation), Filter
 *       over the nodes upstream evaluates (230 of 500 at the adaptive percentage) on 2 threads, and
 *       Score; the DRA state changes before every cycle as during a burst; target median < 2 ms.
 * </ul>
 *
 * Run: {@code scripts/bench jdra-scheduler -f 1 -wi 3 -i 5 -bm sample SchedulerBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SchedulerBench {
  static final String DRIVER = GpuCluster.DRIVER;
  static final int NODES = 500;
  static final int DEVICES = 10;

  DraManager dra;
  Framework framework;
  SchedulingAlgorithm algorithm;
  Parallelizer parallelizer;
  Snapshot snapshot;
  PodInfo pod;
  Ctx ctx;
  CycleState preFiltered;
  NodeInfo someNode;
  ResourceClaim bump;
  long n;

  @Setup(Level.Trial)
  public void setup() {
    ctx = Ctx.forTest(new FakeClock());
    dra = Profiles.draManager(FeatureGates.defaults());
    dra.classChanged(Make.deviceClass(DRIVER).driver(DRIVER).obj());
    snapshot =
        GpuCluster.build(
            dra,
            NODES,
            DEVICES,
            d -> Make.device("gpu-" + d).attr("index", (long) d).capacity("memory", "80Gi").obj(),
            i -> DEVICES / 2);
    someNode = snapshot.get("node-250");
    dra.claimChanged(GpuCluster.claim("pod-claim"));
    bump = GpuCluster.claim("bump");
    pod = GpuCluster.pod();
    parallelizer = new Parallelizer(2);
    framework = TestFrameworks.defaultProfile(dra, null, parallelizer);
    algorithm = new SchedulingAlgorithm(framework, 0);
    preFiltered = new CycleState();
    framework.runPreFilterPlugins(ctx, preFiltered, pod, snapshot.nodes());
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    parallelizer.close();
  }

  @Benchmark
  public Object filterOneNode() {
    return framework.runFilterPlugins(ctx, preFiltered, pod, someNode);
  }

  @Benchmark
  public Object schedulingCycle() {
    // Another pod's allocation came or went: the allocated-device snapshot must be rebuilt.
    dra.claimChanged(
        new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder(bump)
            .editMetadata()
            .withResourceVersion(Long.toString(++n))
            .endMetadata()
            .build());
    return algorithm.schedule(ctx, new CycleState(), pod, snapshot);
  }
}
