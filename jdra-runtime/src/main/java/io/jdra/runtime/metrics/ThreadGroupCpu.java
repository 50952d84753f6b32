package io.jdra.runtime.metrics;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A process's CPU time by thread group, from {@code /proc/<pid>/task/<tid>/stat} (Linux), for the
 * benchmarks' breakdowns of a pod's cost: the process total mixes the API server, the components,
 * the informers and the JVM's compiler and garbage-collector threads, which JFR's samples do not
 * show. A thread's group is the first whose pattern matches the start of its kernel name (which
 * keeps 15 characters; virtual threads run under their carriers' names), else "other". Threads that
 * ended between two readings drop out of the second: the components' threads live as long as the
 * process.
 */
public final class ThreadGroupCpu {
  /** Clock ticks per second of utime and stime (USER_HZ, 100 on Linux). */
  private static final long TICKS_PER_SECOND = 100;

  private ThreadGroupCpu() {}

  /** {@code /proc/self/task}: this process's threads. */
  public static Path self() {
    return Path.of("/proc/self/task");
  }

  /** {@code /proc/<pid>/task}: another process's threads. */
  public static Path of(long pid) {
    return Path.of("/proc", Long.toString(pid), "task");
  }

  /**
   * CPU nanoseconds (user + system) per group, in {@code groups}' order (name to pattern), then
   * "other"; empty when the directory cannot be read (not Linux, the process is gone).
   */
  public static Map<String, Long> read(Path tasks, Map<String, Pattern> groups) {
    Map<String, Long> out = new LinkedHashMap<>();
    groups.keySet().forEach(g -> out.put(g, 0L));
    out.put("other", 0L);
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
      for (Path task : dir) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException e) {
          continue; // the thread ended
        }
        out.merge(group(comm(stat), groups), nanos(stat), Long::sum);
      }
    } catch (IOException | RuntimeException e) {
      return Map.of();
    }
    return out;
  }

  /** {@code after - before} per group; empty when either reading is. */
  public static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
    if (after.isEmpty() || before.isEmpty()) {
      return Map.of();
    }
    Map<String, Long> out = new LinkedHashMap<>();
    after.forEach((k, v) -> out.put(k, v - before.getOrDefault(k, 0L)));
    return out;
  }

  /** The group of a thread's kernel name: the first pattern matching its start, else "other". */
  public static String group(String comm, Map<String, Pattern> groups) {
    for (Map.Entry<String, Pattern> g : groups.entrySet()) {
      if (g.getValue().matcher(comm).lookingAt()) {
        return g.getKey();
      }
    }
    return "other";
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
}
