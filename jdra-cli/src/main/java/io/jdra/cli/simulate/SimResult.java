package io.jdra.cli.simulate;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What a simulation found. Deterministic for a scenario and seed: no wall-clock values in here.
 *
 * @param end the simulated time the run stopped at
 * @param sampleInterval time between {@link #samples}
 * @param pods pod counts over the whole run
 * @param attempts scheduling attempts by result (scheduled, unschedulable, error)
 * @param pending time from creation to binding of the pods that got bound, overall and per template
 * @param pendingPercentiles per template (and "all"), the pending time in seconds at each
 *     percentile 0, 1, ..., 100 (nearest rank): the distribution, for plotting
 * @param devices per driver
 * @param fragmentation mean and maximum of the overall fragmentation samples
 * @param reasons why attempts failed, grouped by template and reason, most pods first
 * @param failedAttempts failed attempts per template
 * @param stillPending pods pending at the end, per template, with the last reason
 * @param samples the time series
 */
public record SimResult(
    String scenario,
    long seed,
    Duration end,
    Duration sampleInterval,
    PodCounts pods,
    Map<String, Long> attempts,
    Map<String, Stats> pending,
    Map<String, List<Double>> pendingPercentiles,
    List<DeviceStats> devices,
    Stats fragmentation,
    List<ReasonGroup> reasons,
    Map<String, Integer> failedAttempts,
    List<StillPending> stillPending,
    List<Sample> samples) {

  /** Pod counts. */
  public record PodCounts(
      int created,
      int scheduled,
      int completed,
      int deletedPending,
      int deletedRunning,
      int pendingAtEnd,
      int runningAtEnd) {}

  /** Summary of a sample of seconds or ratios. */
  public record Stats(
      int count, double mean, double p50, double p90, double p95, double p99, double max) {
    static Stats of(double[] values) {
      if (values.length == 0) {
        return new Stats(0, 0, 0, 0, 0, 0, 0);
      }
      double[] s = values.clone();
      Arrays.sort(s);
      double sum = 0;
      for (double v : s) {
        sum += v;
      }
      return new Stats(
          s.length,
          sum / s.length,
          pct(s, 50),
          pct(s, 90),
          pct(s, 95),
          pct(s, 99),
          s[s.length - 1]);
    }

    /** Percentiles 0..100 of the values (empty for none). */
    static List<Double> percentiles(double[] values) {
      if (values.length == 0) {
        return List.of();
      }
      double[] s = values.clone();
      Arrays.sort(s);
      List<Double> out = new java.util.ArrayList<>(101);
      for (int p = 0; p <= 100; p++) {
        out.add(p == 0 ? s[0] : pct(s, p));
      }
      return List.copyOf(out);
    }

    /** Nearest rank, as scheduler_perf: the sorted sample at ceil(n*p/100)-1. */
    private static double pct(double[] sorted, int p) {
      int i = (int) Math.ceil(sorted.length * p / 100.0) - 1;
      return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
  }

  /** A driver's devices: total physical units, mean and peak utilisation (0..1). */
  public record DeviceStats(
      String driver, int units, double meanUtilisation, double peakUtilisation) {}

  /**
   * Failed attempts of one template for one reason.
   *
   * @param reason per node: the plugin and its message; for DynamicResources the allocator's
   *     explanation of the first failing request (numbers that differ per node left out)
   * @param pods distinct pods that had an attempt fail for this reason
   * @param attempts attempts in which this reason rejected at least one node
   * @param nodes node rejections summed over those attempts
   * @param example the first FailedScheduling message with this reason, as the pod's event says it
   */
  public record ReasonGroup(
      String template, String reason, int pods, int attempts, long nodes, String example) {}

  /** Pods of a template still pending at the end, and the last attempt's message of one of them. */
  public record StillPending(String template, int pods, String lastMessage) {}

  /**
   * The state at one instant.
   *
   * @param seconds since the start
   * @param utilisation per driver, 0..1
   * @param fragmentation overall (weighted by the templates' pod counts), 0..1
   * @param fragmentationByTemplate share of the free device units a pod of the template cannot use
   */
  public record Sample(
      double seconds,
      int pending,
      int running,
      int scheduled,
      int completed,
      Map<String, Double> utilisation,
      double fragmentation,
      Map<String, Double> fragmentationByTemplate) {}
}
