package io.jdra.exampledriver.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * CPU time of the live threads, summed by name with the numbers taken out ({@code
 * grpc-default-executor-3} counts as {@code grpc-default-executor-N}): which part of the one JVM
 * (driver handlers, gRPC transport, HTTP client and API server, simulated kubelet) a round trip
 * costs. Threads that end between two readings are missed.
 */
final class ThreadCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private ThreadCpu() {}

  static Map<String, Long> byGroup() {
    Map<String, Long> out = new TreeMap<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      long ns = THREADS.getThreadCpuTime(t.threadId());
      if (ns > 0) {
        out.merge(t.getName().replaceAll("\\d+", "N"), ns, Long::sum);
      }
    }
    return out;
  }

  static Map<String, Long> since(Map<String, Long> before) {
    Map<String, Long> now = byGroup();
    now.replaceAll((k, v) -> v - before.getOrDefault(k, 0L));
    return now;
  }

  /**
   * The sum (Java threads only: without the JIT compiler and GC, which a short run on a busy
   * machine does not amortize), then the groups above 1% of it, largest first, in microseconds per
   * operation.
   */
  static String format(Map<String, Long> cpu, int ops) {
    long all = cpu.values().stream().mapToLong(Long::longValue).sum();
    return String.format("%.0f = ", all / 1e3 / ops)
        + cpu.entrySet().stream()
            .filter(e -> e.getValue() * 100 > all)
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .map(e -> String.format("%s %.0f", e.getKey(), e.getValue() / 1e3 / ops))
            .collect(Collectors.joining(" + "));
  }
}
