package io.jdra.allocator.bench;

import io.jdra.allocator.Allocator;
import io.jdra.allocator.Scenarios;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time per allocation for the benchmark scenarios, measured with the thread's CPU clock: on a
 * shared, overloaded machine wall-clock JMH numbers include time spent waiting for a core; this
 * shows the cost itself. Run: {@code java -cp <test classpath>
 * io.jdra.allocator.bench.CpuTimeProbe}.
 */
public final class CpuTimeProbe {
  private CpuTimeProbe() {}

  public static void main(String[] args) throws Exception {
    measure("plain shape, per node (100 nodes x 10 devices)", Scenarios.plain(100), 20_000);
    measurePerNode(
        "matchAttribute, per node (500 nodes x 10 devices, 5 of them)",
        Scenarios.matchPerNode(500),
        100_000);
    for (int n : new int[] {20, 25, 30}) {
      measure("only-device trap, " + n + " devices", Scenarios.onlyDeviceTrap(n), 200);
      measure("one device too many, " + n + " devices", Scenarios.oneTooMany(n / 5, 5), 200);
      measure(
          "only-device trap via firstAvailable, " + n + " devices",
          Scenarios.onlyDeviceTrapPrioritized(n),
          200);
    }
    // Upstream's plain search alone (no pruning), for comparison: exponential in n.
    for (int n : new int[] {8, 9, 10, 11}) {
      Scenarios.Scenario s = Scenarios.onlyDeviceTrap(n);
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      long cpu = mx.getCurrentThreadCpuTime();
      s.run(s.allocator(Long.MAX_VALUE));
      System.out.printf(
          "%-55s cpu %10.1f us/op   (plain search only)%n",
          "only-device trap, " + n + " devices", (mx.getCurrentThreadCpuTime() - cpu) / 1000.0);
    }
    measure("matchAttribute 8 of 64 in 8 groups, 1 request", Scenarios.matchGroups(1), 200);
    measure("matchAttribute 8 of 64 in 8 groups, 8 requests", Scenarios.matchGroups(8), 200);
  }

  private static void measurePerNode(String name, Scenarios.PerNode s, int iterations)
      throws Exception {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (int i = 0; i < iterations; i++) {
      s.next();
    }
    long cpu = mx.getCurrentThreadCpuTime();
    long wall = System.nanoTime();
    for (int i = 0; i < iterations; i++) {
      s.next();
    }
    double cpuUs = (mx.getCurrentThreadCpuTime() - cpu) / 1000.0 / iterations;
    double wallUs = (System.nanoTime() - wall) / 1000.0 / iterations;
    System.out.printf("%-55s cpu %10.1f us/op   wall %10.1f us/op%n", name, cpuUs, wallUs);
  }

  private static void measure(String name, Scenarios.Scenario s, int iterations) throws Exception {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Allocator a = s.allocator();
    for (int i = 0; i < iterations; i++) {
      s.run(a);
    }
    long cpu = mx.getCurrentThreadCpuTime();
    long wall = System.nanoTime();
    for (int i = 0; i < iterations; i++) {
      s.run(a);
    }
    double cpuUs = (mx.getCurrentThreadCpuTime() - cpu) / 1000.0 / iterations;
    double wallUs = (System.nanoTime() - wall) / 1000.0 / iterations;
    System.out.printf("%-55s cpu %10.1f us/op   wall %10.1f us/op%n", name, cpuUs, wallUs);
  }
}
