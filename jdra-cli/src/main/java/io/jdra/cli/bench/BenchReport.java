package io.jdra.cli.bench;

import io.jdra.cli.htmlreport.HtmlPage;
import io.jdra.cli.htmlreport.LineChart;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The HTML report of one run: the summary, throughput and pending pods over time, the latency
 * distribution, and the run next to upstream's published numbers. One self-contained file.
 */
public final class BenchReport {
  private BenchReport() {}

  /** Writes {@code dir/index.html}; returns the file. */
  public static Path write(BenchResult r, Path dir) throws IOException {
    HtmlPage page = new HtmlPage("jdra bench scheduler: " + r.workload().name());
    page.paragraph(machine(r));
    page.heading("Summary");
    page.table(
        List.of("metric", "unit", "Average", "Perc50", "Perc90", "Perc95", "Perc99"),
        summaryRows(r));
    page.note(
        "Scheduling attempts while measuring: "
            + r.measured().attempts()
            + "; end state: "
            + (r.ok() ? "correct" : "WRONG: " + String.join("; ", r.correctness().problems()))
            + " ("
            + r.correctness().pods()
            + " pods, "
            + r.correctness().claims()
            + " claims, "
            + r.correctness().devices()
            + " devices allocated).");
    List<Throughput.Point> tl = r.measured().throughput().timeline();
    double[] t = tl.stream().mapToDouble(Throughput.Point::seconds).toArray();
    page.chart(
        LineChart.builder("SchedulingThroughput over time (pods/s, each second)")
            .axes("time since the measured pods were first created", "pods/s")
            .series("pods/s", t, tl.stream().mapToDouble(Throughput.Point::podsPerSecond).toArray())
            .timeAxis()
            .build());
    page.chart(
        LineChart.builder("Measured pods pending (created, not yet bound)")
            .axes("time since the measured pods were first created", "pods")
            .series("pending", t, tl.stream().mapToDouble(Throughput.Point::pending).toArray())
            .timeAxis()
            .steps()
            .build());
    page.chart(latencyChart(r));
    page.heading("Next to upstream's published numbers");
    page.table(
        List.of("workload", "SchedulingThroughput average, pods/s", "where", "machine"),
        comparisonRows(r));
    page.note(
        "Upstream runs kube-apiserver with etcd, kube-scheduler and its client in one Go test"
            + " binary; jdra runs its API server, ResourceClaim controller and scheduler in one"
            + " JVM. Different machines: compare orders of magnitude, not percents.");
    return page.writeTo(dir);
  }

  private static String machine(BenchResult r) {
    var os = ManagementFactory.getOperatingSystemMXBean();
    return String.format(
        Locale.ROOT,
        "Run started %s on %d CPUs (load average %.2f at the end), Java %s, %s. Workload from %s.",
        Instant.ofEpochMilli(r.startedMillis()),
        os.getAvailableProcessors(),
        os.getSystemLoadAverage(),
        Runtime.version(),
        r.conditions().describe(),
        r.workload().config().source());
  }

  private static List<List<String>> summaryRows(BenchResult r) {
    List<List<String>> rows = new ArrayList<>();
    for (BenchResult.Row row : r.rows()) {
      List<String> cells = new ArrayList<>();
      cells.add(row.metric() + (row.label().isEmpty() ? "" : "{" + row.label() + "}"));
      cells.add(row.unit());
      cells.add(num(row.average()));
      Arrays.stream(row.percentiles()).forEach(p -> cells.add(num(p)));
      rows.add(cells);
    }
    return rows;
  }

  private static List<List<String>> comparisonRows(BenchResult r) {
    List<List<String>> rows = new ArrayList<>();
    int cpus = Runtime.getRuntime().availableProcessors();
    rows.add(
        List.of(
            r.workload().name(),
            num(r.measured().throughput().average()),
            "this run (jdra)",
            cpus + " CPUs"));
    if (r.workload().threshold() != null) {
      rows.add(
          List.of(
              r.workload().name(),
              num(r.workload().threshold()),
              "upstream's CI threshold (performance-config.yaml)",
              "CI"));
    }
    for (UpstreamNumbers.Number n : UpstreamNumbers.forWorkload(r.workload().name())) {
      rows.add(List.of(n.workload(), num(n.podsPerSecond()), n.source(), "6 CPUs"));
    }
    return rows;
  }

  /** The share of measured pods bound within x ms of their creation (a CDF). */
  private static LineChart latencyChart(BenchResult r) {
    double[] lat = r.measured().latenciesMillis().clone();
    Arrays.sort(lat);
    int points = Math.min(lat.length, 200);
    double[] x = new double[points];
    double[] y = new double[points];
    for (int i = 0; i < points; i++) {
      int k =
          (int) Math.min(lat.length - 1, Math.round((i + 1) * (double) lat.length / points) - 1);
      x[i] = lat[k];
      y[i] = (k + 1) / (double) lat.length;
    }
    LineChart.Builder b =
        LineChart.builder("Latency distribution: share of measured pods bound within x ms")
            .axes("ms from the create request to the bind seen by a watch", "share of pods")
            .yMax(1)
            .series("create-to-bound", x, y);
    Histograms.Series sli = r.measured().sliDuration();
    if (sli != null && sli.count() > 0) {
      List<Double> sx = new ArrayList<>();
      List<Double> sy = new ArrayList<>();
      // Up to the first bucket holding every observation: the exponential buckets go on to
      // hours, which would squash the distribution into the left edge.
      for (int i = 0; i < sli.upper().length && !Double.isInfinite(sli.upper()[i]); i++) {
        sx.add(sli.upper()[i] * 1000);
        sy.add(sli.cumulative()[i] / (double) sli.count());
        if (sli.cumulative()[i] == sli.count()) {
          break;
        }
      }
      b.series(
          "scheduler_pod_scheduling_sli_duration_seconds (buckets)",
          sx.stream().mapToDouble(Double::doubleValue).toArray(),
          sy.stream().mapToDouble(Double::doubleValue).toArray());
    }
    return b.build();
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.1f", v);
  }
}
