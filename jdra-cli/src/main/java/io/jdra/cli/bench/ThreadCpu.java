package io.jdra.cli.bench;

import io.jdra.runtime.metrics.ThreadGroupCpu;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * This process's CPU time by thread group ({@link ThreadGroupCpu}): the breakdown of a measured
 * pod's cost into the API server, the scheduler, the ResourceClaim controller's workers, the
 * informers' watch decoding, the bench itself and the JVM's compiler and garbage-collector threads.
 */
final class ThreadCpu {
  /** The group of the JIT compiler threads. */
  static final String JIT = "JIT compilers";

  /**
   * Groups in match order. In-process requests run on the API server's event loops (the Vert.x
   * threads), so those also carry the clients' request and response handling. Virtual threads run
   * on the ForkJoinPool's carrier threads, which the kernel knows by the carriers' names; the
   * controllers' workers are platform threads.
   */
  static final List<Group> GROUPS =
      List.of(
          new Group("API server (event loops)", "vert\\.x-eventloo"),
          new Group("scheduler loop", "scheduler-loop"),
          new Group("scheduler Filter workers", "scheduler-paral"),
          new Group("virtual threads (scheduler binding, event writes)", "ForkJoinPool-\\d"),
          new Group("ResourceClaim controller workers", "resource-claim-"),
          new Group("informers (watch decoding and handlers)", "-+\\d+-p|(.*-)?pool-\\d"),
          new Group("events", "jdra-event"),
          new Group("bench (pod creates)", "bench-"),
          new Group(JIT, "C[12] Compiler"),
          new Group("GC", "GC Thread|G1 |VM Thread"));

  /** A group's name and the pattern of its threads' kernel names. */
  record Group(String name, String pattern) {}

  private static final Map<String, Pattern> PATTERNS = new LinkedHashMap<>();

  static {
    GROUPS.forEach(g -> PATTERNS.put(g.name(), Pattern.compile(g.pattern())));
  }

  private ThreadCpu() {}

  /** CPU nanoseconds per group name (and "other"), in {@link #GROUPS} order; empty off Linux. */
  static Map<String, Long> read() {
    return ThreadGroupCpu.read(ThreadGroupCpu.self(), PATTERNS);
  }

  static String group(String comm) {
    return ThreadGroupCpu.group(comm, PATTERNS);
  }
}
