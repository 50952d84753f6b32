package io.jdra.cli.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * This process's CPU time by thread group, from {@code /proc/self/task/<tid>/stat} (Linux): the
 * breakdown of a measured pod's cost into the API server, the scheduler, the ResourceClaim
 * controller, the informers' watch decoding, the bench itself and the JVM's compiler and garbage
 * collector threads, which JFR's samples do not show. A thread's group is the first whose pattern
 * matches the start of its kernel name (15 characters); threads that ended between two readings
 * drop out of the second, which the components' long-lived threads do not.
 */
final class ThreadCpu {
  /** Clock ticks per second of utime and stime (USER_HZ, 100 on Linux). */
  private static final long TICKS_PER_SECOND = 100;

  /**
   * Groups in match order. In-process requests run on the API server's event loops (the Vert.x
   * threads), so those also carry the clients' request and response handling. Virtual threads run
   * on the ForkJoinPool's carrier threads, which the kernel knows by the carriers' names.
   */
  static final List<Group> GROUPS =
      List.of(
          new Group("API server (event loops)", "vert\\.x-eventloo"),
          new Group("scheduler loop", "scheduler-loop"),
          new Group("scheduler Filter workers", "scheduler-paral"),
          new Group(
              "virtual threads (scheduler binding, ResourceClaim controller workers)",
              "ForkJoinPool-\\d"),
          new Group("informers (watch decoding and handlers)", "-*\\d+-pool|(.*-)?pool-\\d"),
          new Group("events", "jdra-event"),
          new Group("bench (pod creates)", "bench-"),
          new Group("JIT compilers", "C[12] Compiler"),
          new Group("GC", "GC Thread|G1 |VM Thread"));

  /** A group's name and the pattern of its threads' kernel names. */
  record Group(String name, String pattern) {
    Pattern compiled() {
      return Pattern.compile(pattern);
    }
  }

  private static final List<Pattern> PATTERNS = GROUPS.stream().map(Group::compiled).toList();

  private ThreadCpu() {}

  /** CPU nanoseconds per group name (and "other"), in {@link #GROUPS} order; empty off Linux. */
  static Map<String, Long> read() {
    Map<String, Long> out = new LinkedHashMap<>();
    GROUPS.forEach(g -> out.put(g.name(), 0L));
    out.put("other", 0L);
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
      for (Path task : dir) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException e) {
          continue; // the thread ended
        }
        out.merge(group(comm(stat)), nanos(stat), Long::sum);
      }
    } catch (IOException | RuntimeException e) {
      return Map.of();
    }
    return out;
  }

  /** {@code after - before} per group; empty when either reading is. */
  static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
    if (after.isEmpty() || before.isEmpty()) {
      return Map.of();
    }
    Map<String, Long> out = new LinkedHashMap<>();
    after.forEach((k, v) -> out.put(k, v - before.getOrDefault(k, 0L)));
    return out;
  }

  // "tid (comm) state ppid ...": comm may hold spaces and parentheses; it ends at the last ')'.
  static String comm(String stat) {
    return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  }

  static long nanos(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
    return ticks * (1_000_000_000L / TICKS_PER_SECOND);
  }

  static String group(String comm) {
    for (int i = 0; i < PATTERNS.size(); i++) {
      if (PATTERNS.get(i).matcher(comm).lookingAt()) {
        return GROUPS.get(i).name();
      }
    }
    return "other";
  }
}
