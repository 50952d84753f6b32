package io.jdra.cli.bench;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;

/**
 * The outcome of one run: throughput, latencies, attempts and the end-state check.
 *
 * @param workload what ran
 * @param measured what was measured while the measured pods were scheduled
 * @param correctness the end-state check
 * @param attemptsTotal scheduler_schedule_attempts_total by result over the whole run
 * @param startedMillis wall-clock start of the run
 * @param conditions the JIT and the warm-up runs before this one
 */
public record BenchResult(
    Workload workload,
    Measurement.Result measured,
    Correctness correctness,
    Map<String, Long> attemptsTotal,
    long startedMillis,
    RunConditions conditions) {
  static final int[] PERCENTILES = {50, 90, 95, 99};

  public boolean ok() {
    return correctness.ok();
  }

  /** A row of the summary: a metric with its unit, average and percentiles. */
  record Row(String metric, String label, String unit, double average, double[] percentiles) {}

  /** The summary rows, in the order of the table and of the JSON dataItems. */
  List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    Throughput t = measured.throughput();
    rows.add(row("SchedulingThroughput", "", "pods/s", t.average(), t::percentile));
    double[] lat = measured.latenciesMillis();
    rows.add(row("pod_create_to_bound_latency", "", "ms", mean(lat), p -> Percentiles.of(lat, p)));
    measured
        .attemptDuration()
        .forEach((result, h) -> {
          if (h.count() > 0) {
            rows.add(histogramRow(Measurement.ATTEMPT_DURATION, "result=" + result, h));
          }
        });
    if (measured.sliDuration() != null && measured.sliDuration().count() > 0) {
      rows.add(histogramRow(Measurement.SLI_DURATION, "", measured.sliDuration()));
    }
    return rows;
  }

  private static Row histogramRow(String metric, String label, Histograms.Series h) {
    return row(metric, label, "ms", h.average() * 1000, p -> h.quantile(p) * 1000);
  }

  private static Row row(
      String metric, String label, String unit, double avg, IntToDoubleFunction perc) {
    double[] p = new double[PERCENTILES.length];
    for (int i = 0; i < p.length; i++) {
      p[i] = perc.applyAsDouble(PERCENTILES[i]);
    }
    return new Row(metric, label, unit, avg, p);
  }

  /**
   * The JIT compiler threads' share of the process's CPU during the measured phase; NaN where the
   * per-thread CPU is unknown (off Linux) or no pod was measured.
   */
  public double jitShare() {
    Long jit = measured.threadCpuNanos().get(ThreadCpu.JIT);
    long all = measured.cpuNanos();
    return jit == null || all <= 0 ? Double.NaN : (double) jit / all;
  }

  /** Throughput, CPU per pod and the end state on one line, for progress output. */
  public String summaryLine() {
    return String.format(
        java.util.Locale.ROOT,
        "%.1f pods/s average, %.1f ms CPU per measured pod, end state %s",
        measured.throughput().average(),
        measured.cpuMillisPerPod(),
        ok() ? "ok" : "WRONG");
  }

  /** The human table. */
  public void printTable(PrintWriter out) {
    out.printf("%s%n", workload.name());
    out.printf(
        "  %-66s %9s %9s %9s %9s %9s%n",
        "metric", "Average", "Perc50", "Perc90", "Perc95", "Perc99");
    for (Row r : rows()) {
      String name = r.metric() + (r.label().isEmpty() ? "" : "{" + r.label() + "}");
      out.printf(
          "  %-66s %9.1f %9.1f %9.1f %9.1f %9.1f%n",
          name + " " + r.unit(),
          r.average(),
          r.percentiles()[0],
          r.percentiles()[1],
          r.percentiles()[2],
          r.percentiles()[3]);
    }
    out.printf(
        "  samples: %d s of throughput; measured pods bound: %d%n",
        measured.throughput().samples().length, measured.latenciesMillis().length);
    out.printf(
        "  scheduling attempts while measuring: %s; whole run: %s%n",
        measured.attempts(), attemptsTotal);
    printCost(out);
    out.printf("  %s%n", conditions.describe());
    if (workload.threshold() != null) {
      out.printf(
          "  upstream's CI threshold for this workload: %.0f pods/s average%n",
          workload.threshold());
    }
    out.printf(
        "  correctness: %s (%d pods, %d claims, %d devices allocated)%n",
        correctness.ok() ? "ok" : "FAILED",
        correctness.pods(),
        correctness.claims(),
        correctness.devices());
    correctness.problems().forEach(p -> out.printf("    %s%n", p));
    out.flush();
  }

  /** What one measured pod cost this process: CPU time and API requests by verb and resource. */
  private void printCost(PrintWriter out) {
    int pods = measured.latenciesMillis().length;
    if (pods == 0) {
      return;
    }
    out.printf(
        "  CPU per measured pod: %.1f ms (process user + system over the measured phase)%n",
        measured.cpuMillisPerPod());
    Map<String, Double> threads = measured.threadCpuMillisPerPod();
    if (!threads.isEmpty()) {
      StringBuilder t = new StringBuilder();
      threads.forEach((k, v) ->
          t.append(t.isEmpty() ? "" : ", ")
              .append(k)
              .append(' ')
              .append(String.format(java.util.Locale.ROOT, "%.2f", v)));
      out.printf("  of it by threads, ms per pod: %s%n", t);
    }
    if (measured.requests().isEmpty()) {
      return;
    }
    long total = measured.requests().values().stream().mapToLong(Long::longValue).sum();
    StringBuilder b = new StringBuilder();
    measured
        .requests()
        .forEach(
            (k, v) -> b.append(b.isEmpty() ? "" : ", ").append(k).append(' ').append(per(v, pods)));
    out.printf("  API requests per measured pod: %s total: %s%n", per(total, pods), b);
  }

  private static String per(long n, int pods) {
    return String.format(java.util.Locale.ROOT, "%.2f", (double) n / pods);
  }

  static double mean(double[] v) {
    double s = 0;
    for (double d : v) {
      s += d;
    }
    return v.length == 0 ? 0 : s / v.length;
  }

  /**
   * scheduler_perf's output shape, {@code {"version":"v1","dataItems":[...]}}: one item per metric
   * with {@code data} (Average, Perc50..Perc99), {@code unit} and {@code labels} (Metric, Name, and
   * the histogram's label); jdra adds the attempt counts and the end-state check.
   */
  public String json() {
    List<Map<String, Object>> items = new ArrayList<>();
    for (Row r : rows()) {
      Map<String, Object> data = new LinkedHashMap<>();
      data.put("Average", r.average());
      for (int i = 0; i < PERCENTILES.length; i++) {
        data.put("Perc" + PERCENTILES[i], r.percentiles()[i]);
      }
      Map<String, Object> labels = labels(r.metric());
      if (!r.label().isEmpty()) {
        String[] kv = r.label().split("=", 2);
        labels.put(kv[0], kv[1]);
      }
      items.add(item(data, r.unit(), labels));
    }
    items.add(
        item(
            new LinkedHashMap<>(measured.attempts()),
            "",
            labels("scheduler_schedule_attempts_total")));
    if (!measured.requests().isEmpty()) {
      items.add(item(new LinkedHashMap<>(measured.requests()), "", labels(RequestCounts.METRIC)));
    }
    if (!measured.threadCpuMillisPerPod().isEmpty()) {
      items.add(
          item(
              new LinkedHashMap<>(measured.threadCpuMillisPerPod()),
              "ms",
              labels("process_cpu_per_pod_by_threads")));
    }
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
    doc.put("conditions", conditions.json());
    return Serialization.asJson(doc);
  }

  private Map<String, Object> labels(String metric) {
    Map<String, Object> labels = new LinkedHashMap<>();
    labels.put("Metric", metric);
    labels.put("Name", workload.name());
    return labels;
  }

  private static Map<String, Object> item(
      Map<String, Object> data, String unit, Map<String, Object> labels) {
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("data", data);
    item.put("unit", unit);
    item.put("labels", labels);
    return item;
  }
}
