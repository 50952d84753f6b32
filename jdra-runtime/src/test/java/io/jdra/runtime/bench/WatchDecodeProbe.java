package io.jdra.runtime.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@link WatchDecodeBench}'s operations timed by this thread's CPU time rather than by the clock,
 * so that a loaded machine (other builds preempting the thread) changes the numbers little: after a
 * warm-up, 15 rounds of each operation, printing the median and the lowest round in microseconds of
 * CPU per operation.
 *
 * <pre>java -cp ... io.jdra.runtime.bench.WatchDecodeProbe [seconds of warm-up, default 20]</pre>
 */
public final class WatchDecodeProbe {
  private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
  private static final Blackhole BH =
      new Blackhole(
          "Today's password is swordfish. I understand instantiating Blackholes directly is"
              + " dangerous.");

  private WatchDecodeProbe() {}

  public static void main(String[] args) {
    long warmupNanos = (args.length > 0 ? Long.parseLong(args[0]) : 20) * 1_000_000_000L;
    WatchDecodeBench b = new WatchDecodeBench();
    b.setUp();
    long end = System.nanoTime() + warmupNanos;
    while (System.nanoTime() < end) {
      runAll(b, 100);
    }
    print("steadyStatePod (9 events)", b, 0, 500);
    print("boundPodEvent", b, 1, 5000);
    print("allocatedClaimEvent", b, 2, 5000);
    print("claimResponse", b, 3, 5000);
  }

  private static void runAll(WatchDecodeBench b, int n) {
    for (int op = 0; op < 4; op++) {
      run(b, op, n);
    }
  }

  private static void run(WatchDecodeBench b, int op, int n) {
    for (int i = 0; i < n; i++) {
      switch (op) {
        case 0 -> b.steadyStatePod(BH);
        case 1 -> BH.consume(b.boundPodEvent());
        case 2 -> BH.consume(b.allocatedClaimEvent());
        default -> BH.consume(b.claimResponse());
      }
    }
  }

  private static void print(String name, WatchDecodeBench b, int op, int n) {
    double[] rounds = new double[15];
    for (int r = 0; r < rounds.length; r++) {
      long cpu = MX.getCurrentThreadCpuTime();
      run(b, op, n);
      rounds[r] = (MX.getCurrentThreadCpuTime() - cpu) / 1000.0 / n;
    }
    Arrays.sort(rounds);
    System.out.printf(
        "%-28s %8.2f us CPU/op median, %8.2f lowest%n", name, rounds[rounds.length / 2], rounds[0]);
  }
}
