package io.jdra.cli.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Several measured runs of one workload ({@code jdra bench scheduler --count N}, as go test's
 * {@code -count} for scheduler_perf): which run stands for them, and a line with all of them. One
 * run on a shared two-core machine spreads by 10-30 %, more than some of the differences worth
 * knowing (a selector workload against the same one without selectors).
 */
public final class MeasuredRuns {
  private MeasuredRuns() {}

  /**
   * The run to report: the first whose end state is wrong (a bug outranks any number), else the one
   * with the median SchedulingThroughput average (the lower middle one of an even count).
   */
  public static BenchResult reported(List<BenchResult> runs) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("no measured run");
    }
    for (BenchResult r : runs) {
      if (!r.ok()) {
        return r;
      }
    }
    List<BenchResult> sorted = new ArrayList<>(runs);
    sorted.sort(Comparator.comparingDouble(MeasuredRuns::average));
    return sorted.get((sorted.size() - 1) / 2);
  }

  /** {@code SchedulingThroughput average over N measured runs: median M pods/s (runs: a, b, c)}. */
  public static String summary(List<BenchResult> runs) {
    return String.format(
        Locale.ROOT,
        "SchedulingThroughput average over %d measured runs: median %.1f pods/s (runs: %s)",
        runs.size(),
        average(reported(runs)),
        runs.stream()
            .map(r -> String.format(Locale.ROOT, "%.1f", average(r)))
            .collect(Collectors.joining(", ")));
  }

  private static double average(BenchResult r) {
    return r.measured().throughput().average();
  }
}
