package io.jdra.cli.bench;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the measured run's numbers depend on besides the code: the JIT compilers the JVM runs, its
 * garbage collector and how many runs of the workload came before the measured one in the same JVM.
 * A Go scheduler runs compiled code from its first pod; a JVM reaches its optimised code only after
 * C2 has compiled the hot paths, which on two cores takes longer than one workload. Warm-up runs
 * measure the compiled state a long-running scheduler is in; without them the bench measures a cold
 * start.
 *
 * @param warmupRuns runs of the same workload before the measured one
 * @param jit the compilers: "C1 only" or "C1 and C2"
 * @param gc the garbage collector: "Parallel", "G1", "ZGC", "Serial", "Shenandoah" or its JMX name
 */
public record RunConditions(int warmupRuns, String jit, String gc) {
  public RunConditions {
    if (warmupRuns < 0) {
      throw new IllegalArgumentException("warm-up runs must be >= 0, got " + warmupRuns);
    }
  }

  /** The conditions of this JVM with {@code warmupRuns} runs before the measured one. */
  public static RunConditions current(int warmupRuns) {
    return new RunConditions(
        warmupRuns,
        jitOf(vmOption("TieredStopAtLevel"), vmOption("TieredCompilation")),
        gcOf(
            ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(java.lang.management.MemoryManagerMXBean::getName)
                .toList()));
  }

  /** The collector's common name from the names of its JMX beans. */
  static String gcOf(List<String> beanNames) {
    String all = String.join(", ", beanNames);
    if (all.contains("G1 ")) {
      return "G1";
    }
    if (all.startsWith("PS ")) {
      return "Parallel";
    }
    if (all.startsWith("ZGC")) {
      return "ZGC";
    }
    if (all.startsWith("Shenandoah")) {
      return "Shenandoah";
    }
    if (all.startsWith("Copy")) {
      return "Serial";
    }
    return all.isEmpty() ? "unknown" : all;
  }

  /** The compilers a HotSpot JVM runs, from its TieredStopAtLevel and TieredCompilation. */
  static String jitOf(String tieredStopAtLevel, String tieredCompilation) {
    if ("false".equals(tieredCompilation)) {
      return "C2 only";
    }
    if (tieredStopAtLevel != null && !tieredStopAtLevel.equals("4")) {
      return "C1 only";
    }
    return "C1 and C2";
  }

  private static String vmOption(String name) {
    try {
      return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
          .getVMOption(name)
          .getValue();
    } catch (RuntimeException e) {
      return null; // not HotSpot: the compilers are unknown, reported as the default
    }
  }

  /** One line for the table and the report. */
  public String describe() {
    return "JIT: "
        + jit
        + "; GC: "
        + gc
        + "; "
        + (warmupRuns == 0
            ? "no warm-up (a cold JVM)"
            : warmupRuns
                + " warm-up run"
                + (warmupRuns == 1 ? "" : "s")
                + " of this workload before");
  }

  Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("jit", jit);
    m.put("gc", gc);
    m.put("warmupRuns", warmupRuns);
    return m;
  }
}
