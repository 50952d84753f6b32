package io.jdra.cli.bench;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one run: throughput, latencies, attempts and the correctness check.
 *
 * @param workload what ran
 * @param throughput SchedulingThroughput samples
 * @param latenciesMillis create-to-bound latency of each measured pod
 * @param attempts scheduler_schedule_attempts_total by result
 * @param correctness the end-state check
 */
public record BenchResult(
    Workload workload,
    Throughput throughput,
    double[] latenciesMillis,
    Map<String, Long> attempts,
    Correctness correctness) {
  private static final int[] PERCENTILES = {50, 90, 95, 99};

  public boolean ok() {
    return correctness.ok();
  }

  /** The human table. */
  public void printTable(PrintWriter out) {
    out.printf("%s%n", workload.name());
    out.printf(
        "  %-28s %9s %9s %9s %9s %9s%n",
        "metric", "Average", "Perc50", "Perc90", "Perc95", "Perc99");
    row(out, "SchedulingThroughput pods/s", throughput.average(), throughput::percentile);
    row(
        out,
        "create-to-bound latency ms",
        mean(latenciesMillis),
        p -> Percentiles.of(latenciesMillis, p));
    out.printf("  attempts: %s%n", attempts);
    out.printf(
        "  correctness: %s (%d pods, %d claims, %d devices allocated)%n",
        correctness.ok() ? "ok" : "FAILED",
        correctness.pods(),
        correctness.claims(),
        correctness.devices());
    correctness.problems().forEach(p -> out.printf("    %s%n", p));
    out.flush();
  }

  private static void row(
      PrintWriter out, String name, double avg, java.util.function.IntToDoubleFunction perc) {
    out.printf(
        "  %-28s %9.1f %9.1f %9.1f %9.1f %9.1f%n",
        name,
        avg,
        perc.applyAsDouble(50),
        perc.applyAsDouble(90),
        perc.applyAsDouble(95),
        perc.applyAsDouble(99));
  }

  private static double mean(double[] v) {
    double s = 0;
    for (double d : v) {
      s += d;
    }
    return v.length == 0 ? 0 : s / v.length;
  }

  /** scheduler_perf's output shape: {@code {"version":"v1","dataItems":[...]}}. */
  public String json() {
    List<Map<String, Object>> items = new ArrayList<>();
    items.add(
        item(
            stats(throughput.average(), throughput::percentile), "pods/s", "SchedulingThroughput"));
    items.add(
        item(
            stats(mean(latenciesMillis), p -> Percentiles.of(latenciesMillis, p)),
            "ms",
            "jdra_pod_create_to_bound_latency"));
    Map<String, Object> att = new LinkedHashMap<>(attempts);
    items.add(item(att, "attempts", "scheduler_schedule_attempts_total"));
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("version", "v1");
    doc.put("dataItems", items);
    Map<String, Object> check = new LinkedHashMap<>();
    check.put("ok", correctness.ok());
    check.put("pods", correctness.pods());
    check.put("claims", correctness.claims());
    check.put("devicesAllocated", correctness.devices());
    check.put("problems", correctness.problems());
    doc.put("correctness", check);
    return Serialization.asJson(doc);
  }

  private static Map<String, Object> stats(
      double avg, java.util.function.IntToDoubleFunction perc) {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("Average", avg);
    for (int p : PERCENTILES) {
      d.put("Perc" + p, perc.applyAsDouble(p));
    }
    return d;
  }

  private Map<String, Object> item(Map<String, Object> data, String unit, String metric) {
    Map<String, Object> labels = new LinkedHashMap<>();
    labels.put("Metric", metric);
    labels.put("Name", workload.name());
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("data", data);
    item.put("unit", unit);
    item.put("labels", labels);
    return item;
  }
}
