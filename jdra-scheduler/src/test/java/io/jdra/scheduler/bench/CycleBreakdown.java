package io.jdra.scheduler.bench;

import io.jdra.allocator.Allocator;
import io.jdra.scheduler.framework.CycleState;

/**
 * A scenario program next to {@link SchedulerBench}: the fastest of 300 runs of each piece of a
 * scheduling cycle (allocated-device snapshot, allocator creation, PreFilter, a cycle with and
 * without a DRA state change, Filter over 230 nodes on one thread). Minimums stay meaningful on a
 * loaded machine, where medians do not. Run with the bench classpath (see scripts/bench).
 */
public class CycleBreakdown {
  interface R {
    void run();
  }

  static long min(R r) {
    long m = Long.MAX_VALUE;
    for (int i = 0; i < 300; i++) {
      long t = System.nanoTime();
      r.run();
      m = Math.min(m, System.nanoTime() - t);
    }
    return m / 1000;
  }

  public static void main(String[] a) {
    SchedulerBench b = new SchedulerBench();
    b.setup();
    CycleState st = new CycleState();
    b.framework.runPreFilterPlugins(b.ctx, st, b.pod, b.snapshot.nodes());
    for (int round = 0; round < 3; round++) {
      System.out.printf(
          "min us: allocatedState %d, allocator.create %d, prefilter %d, cycle(no bump) %d, cycle(bump) %d, filter230 seq %d%n",
          min(() -> {
            b.dra.claimChanged(b.bump);
            b.dra.allocatedState();
          }),
          min(() ->
              Allocator.create(b.dra.allocatedState(), b.dra.classLister(), b.dra.sliceIndex())),
          min(() ->
              b.framework.runPreFilterPlugins(b.ctx, new CycleState(), b.pod, b.snapshot.nodes())),
          min(() -> b.algorithm.schedule(b.ctx, new CycleState(), b.pod, b.snapshot)),
          min(() -> b.schedulingCycle()),
          min(() -> {
            for (var n : b.snapshot.nodes().subList(0, 230))
              b.framework.runFilterPlugins(b.ctx, st, b.pod, n);
          }));
    }
    b.tearDown();
  }
}
