package io.jdra.controllers.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The CPU time of another process's threads by group, from {@code /proc/<pid>/task/<tid>/stat}
 * (Linux): the process total mixes the controller's own work (its workers) with the HTTP client's
 * and the watches', and on a loaded machine it varies too much to show a change in one part. A
 * thread's group is the first group whose pattern matches the start of its name (the kernel keeps
 * 15 characters), else "other". Threads that ended between two readings drop out of the second: the
 * components' threads live as long as the process.
 */
final class ThreadGroupsCpu {
  /** Clock ticks per second of utime and stime (USER_HZ, 100 on Linux). */
  private static final long TICKS_PER_SECOND = 100;

  private ThreadGroupsCpu() {}

  /**
   * Milliseconds of CPU per group ({@code groups}: name to thread-name pattern, in match order) and
   * "other"; empty when the process or /proc is not there.
   */
  static Map<String, Long> read(long pid, Map<String, Pattern> groups) {
    Map<String, Long> out = new LinkedHashMap<>();
    groups.keySet().forEach(g -> out.put(g, 0L));
    out.put("other", 0L);
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
      for (Path task : dir) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException e) {
          continue; // the thread ended
        }
        // "tid (comm) state ppid ...": comm may hold spaces and parentheses; it ends at the last
        // ')'.
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        String comm = stat.substring(open + 1, close);
        String[] f = stat.substring(close + 2).split(" ");
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
        out.merge(group(comm, groups), ticks * 1000 / TICKS_PER_SECOND, Long::sum);
      }
    } catch (IOException e) {
      return Map.of();
    }
    return out;
  }

  private static String group(String comm, Map<String, Pattern> groups) {
    for (Map.Entry<String, Pattern> g : groups.entrySet()) {
      if (g.getValue().matcher(comm).lookingAt()) {
        return g.getKey();
      }
    }
    return "other";
  }
}
