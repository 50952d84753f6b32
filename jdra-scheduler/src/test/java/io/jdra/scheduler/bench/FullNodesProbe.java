package io.jdra.scheduler.bench;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.jdra.api.features.FeatureGates;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.scheduler.Profiles;
import io.jdra.scheduler.SchedulingAlgorithm;
import io.jdra.scheduler.TestFrameworks;
import io.jdra.scheduler.cache.Snapshot;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.Framework;
import io.jdra.scheduler.framework.Parallelizer;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import io.jdra.testing.objects.Make;
import java.lang.management.ManagementFactory;

/**
 * A scenario program: the steady-state workloads' shape (500 nodes of 10 devices; {@code full}
 * nodes with all devices allocated, the others free, as scheduler_perf's half_500nodes (250) and
 * full_500nodes (499)), scheduling cycles of a one-device pod on one thread, with the allocated
 * devices changed before each cycle and, with {@code evict}, the caches flushed between cycles as
 * the other threads of the benchmark do. Prints thread CPU per cycle (lowest and median of rounds).
 * Args: full-nodes [evict] [rounds]; {@code -Dprobe.noFilterTimeout=true} runs without
 * DynamicResources' filter timeout (what its per-node deadline costs).
 */
public class FullNodesProbe {
  static final String DRIVER = GpuCluster.DRIVER;
  static final int NODES = 500;
  static final int DEVICES = 10;

  public static void main(String[] args) {
    int full = Integer.parseInt(args[0]);
    boolean evict = args.length > 1 && Boolean.parseBoolean(args[1]);
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 12;
    Ctx ctx = Ctx.forTest(new FakeClock());
    DraManager dra = Profiles.draManager(FeatureGates.defaults());
    dra.classChanged(Make.deviceClass(DRIVER).driver(DRIVER).obj());
    Snapshot snapshot =
        GpuCluster.build(
            dra, NODES, DEVICES, d -> Make.device("gpu-" + d).obj(), i -> i < full ? DEVICES : 0);
    dra.claimChanged(GpuCluster.claim("pod-claim"));
    // A claim allocated on a free node and released again: one pool's devices in use change
    // twice per cycle, as a pod bound and a pod deleted change them in the benchmark.
    int freeNode = NODES - 1;
    ResourceClaim mover =
        Make.claim("mover")
            .namespace("ns")
            .uid("mover")
            .resourceVersion("1")
            .request(DRIVER)
            .allocatedOn("node-" + freeNode, DRIVER, "gpu-0")
            .obj();
    ResourceClaim idle = GpuCluster.claim("mover");
    PodInfo pod = GpuCluster.pod();
    Parallelizer parallelizer = new Parallelizer(1);
    Framework framework =
        Boolean.getBoolean("probe.noFilterTimeout")
            ? Profiles.defaultProfile(
                "default-scheduler",
                FeatureGates.defaults(),
                new io.jdra.scheduler.plugins.dynamicresources.DynamicResourcesArgs(
                    java.time.Duration.ZERO,
                    io.jdra.scheduler.plugins.dynamicresources.DynamicResourcesArgs
                        .DEFAULT_BINDING_TIMEOUT),
                new Profiles.Dra(dra, null, System::nanoTime),
                TestFrameworks.NO_BIND,
                parallelizer,
                name -> null)
            : TestFrameworks.defaultProfile(dra, null, parallelizer);
    SchedulingAlgorithm algorithm = new SchedulingAlgorithm(framework, 0);
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long[] flush = new long[evict ? 1 << 20 : 1];
    long rv = 1;
    long sink = 0;
    for (int round = 0; round < rounds; round++) {
      int cycles = 1_000;
      long[] cpu = new long[cycles];
      long bytes = 0;
      for (int c = 0; c < cycles; c++) {
        dra.claimChanged(version(c % 2 == 0 ? mover : idle, ++rv));
        if (evict) {
          for (int k = 0; k < flush.length; k += 8) {
            sink += flush[k]++;
          }
        }
        long b0 = mx.getCurrentThreadAllocatedBytes();
        long t0 = mx.getCurrentThreadCpuTime();
        Object r = algorithm.schedule(ctx, new CycleState(), pod, snapshot);
        cpu[c] = mx.getCurrentThreadCpuTime() - t0;
        bytes += mx.getCurrentThreadAllocatedBytes() - b0;
        sink += r.hashCode();
      }
      java.util.Arrays.sort(cpu);
      System.out.printf(
          "full=%d evict=%s round %d: cpu per cycle us: p10 %.1f median %.1f mean %.1f; %d bytes%n",
          full,
          evict,
          round,
          cpu[cycles / 10] / 1e3,
          cpu[cycles / 2] / 1e3,
          java.util.Arrays.stream(cpu).average().orElse(0) / 1e3,
          bytes / cycles);
    }
    System.out.println(sink == 42 ? "" : "done");
    parallelizer.close();
  }

  private static ResourceClaim version(ResourceClaim c, long rv) {
    return new ResourceClaimBuilder(c)
        .editMetadata()
        .withResourceVersion(Long.toString(rv))
        .endMetadata()
        .build();
  }
}
