package io.jdra.cli.simulate;

import io.jdra.cli.htmlreport.HtmlPage;
import io.jdra.cli.htmlreport.LineChart;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** A {@link SimResult} as text, as JSON and as a self-contained HTML page. */
public final class Reports {
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private Reports() {}

  // ---- text -----------------------------------------------------------------------------------

  public static void text(SimResult r, PrintWriter out) {
    SimResult.PodCounts c = r.pods();
    out.printf(
        "Scenario %s (seed %d): %s simulated, sampled every %s%n",
        r.scenario(),
        r.seed(),
        Durations.formatSeconds(r.end().toMillis() / 1000.0),
        Durations.format(r.sampleInterval()));
    out.printf(
        "  pods: %d created, %d scheduled, %d completed, %d deleted while pending, %d deleted"
            + " while running; at the end %d running, %d pending%n",
        c.created(),
        c.scheduled(),
        c.completed(),
        c.deletedPending(),
        c.deletedRunning(),
        c.runningAtEnd(),
        c.pendingAtEnd());
    out.printf(
        "  scheduling attempts: %d scheduled, %d unschedulable, %d error%n",
        r.attempts().get("scheduled"),
        r.attempts().get("unschedulable"),
        r.attempts().get("error"));
    out.println();
    out.println("Pending time (creation to binding) of scheduled pods:");
    out.printf(
        "  %-24s %6s %9s %9s %9s %9s %9s %9s%n",
        "template", "pods", "mean", "p50", "p90", "p95", "p99", "max");
    for (Map.Entry<String, SimResult.Stats> e : r.pending().entrySet()) {
      SimResult.Stats s = e.getValue();
      out.printf(
          "  %-24s %6d %9s %9s %9s %9s %9s %9s%n",
          e.getKey(),
          s.count(),
          d(s, s.mean()),
          d(s, s.p50()),
          d(s, s.p90()),
          d(s, s.p95()),
          d(s, s.p99()),
          d(s, s.max()));
    }
    out.println();
    out.println("Devices (physical units: a device, or a partitionable device's counter set):");
    for (SimResult.DeviceStats ds : r.devices()) {
      out.printf(
          "  %-24s %5d units, utilisation mean %s, peak %s%n",
          ds.driver(), ds.units(), pct(ds.meanUtilisation()), pct(ds.peakUtilisation()));
    }
    out.printf(
        "  fragmentation (free units a pod of the workload cannot use): mean %s, max %s%n",
        pct(r.fragmentation().mean()), pct(r.fragmentation().max()));
    for (Map.Entry<String, SimResult.Stats> e : fragmentationByTemplate(r).entrySet()) {
      out.printf(
          "    for %-24s mean %s, max %s%n",
          e.getKey(), pct(e.getValue().mean()), pct(e.getValue().max()));
    }
    if (!r.reasons().isEmpty()) {
      out.println();
      out.println("Why attempts failed (per template: the reasons nodes were rejected for):");
      for (Map.Entry<String, List<SimResult.ReasonGroup>> e : byTemplate(r).entrySet()) {
        List<SimResult.ReasonGroup> gs = e.getValue();
        int pods = gs.stream().mapToInt(SimResult.ReasonGroup::pods).max().orElse(0);
        int attempts = r.failedAttempts().getOrDefault(e.getKey(), 0);
        out.printf("  %s: %d pods, %d failed attempts%n", e.getKey(), pods, attempts);
        for (SimResult.ReasonGroup g : gs) {
          out.printf(
              "    %4d pods %5d attempts %5.1f nodes/attempt  %s%n",
              g.pods(), g.attempts(), g.nodes() / (double) g.attempts(), g.reason());
        }
        out.printf("    e.g. %s%n", gs.get(0).example());
      }
    }
    if (!r.stillPending().isEmpty()) {
      out.println();
      out.println("Still pending at the end:");
      for (SimResult.StillPending p : r.stillPending()) {
        out.printf("  %s: %d pods; last: %s%n", p.template(), p.pods(), p.lastMessage());
      }
    }
    out.flush();
  }

  /** Mean and maximum fragmentation per template over the samples. */
  static Map<String, SimResult.Stats> fragmentationByTemplate(SimResult r) {
    Map<String, SimResult.Stats> out = new LinkedHashMap<>();
    if (r.samples().isEmpty()) {
      return out;
    }
    for (String tmpl : r.samples().get(0).fragmentationByTemplate().keySet()) {
      out.put(
          tmpl,
          SimResult.Stats.of(
              r.samples().stream()
                  .mapToDouble(s -> s.fragmentationByTemplate().getOrDefault(tmpl, 0.0))
                  .toArray()));
    }
    return out;
  }

  /** The reason groups by template, templates with the most affected pods first. */
  static Map<String, List<SimResult.ReasonGroup>> byTemplate(SimResult r) {
    Map<String, List<SimResult.ReasonGroup>> out = new LinkedHashMap<>();
    for (SimResult.ReasonGroup g : r.reasons()) {
      out.computeIfAbsent(g.template(), k -> new ArrayList<>()).add(g);
    }
    return out;
  }

  /** A duration, or "-" when no pod was bound (nothing to measure). */
  private static String d(SimResult.Stats s, double seconds) {
    return s.count() == 0 ? "-" : d(seconds);
  }

  private static String d(double seconds) {
    return Durations.formatSeconds(seconds);
  }

  private static String pct(double ratio) {
    return String.format(Locale.ROOT, "%.1f%%", ratio * 100);
  }

  // ---- JSON -----------------------------------------------------------------------------------

  public static String json(SimResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("scenario", r.scenario());
    m.put("seed", r.seed());
    m.put("simulatedSeconds", r.end().toMillis() / 1000.0);
    m.put("sampleIntervalSeconds", r.sampleInterval().toMillis() / 1000.0);
    m.put("pods", r.pods());
    m.put("attempts", r.attempts());
    m.put("pendingSeconds", r.pending());
    m.put("pendingSecondsPercentiles", r.pendingPercentiles());
    m.put("devices", r.devices());
    m.put("fragmentation", r.fragmentation());
    m.put("failedAttempts", r.failedAttempts());
    m.put("unschedulable", r.reasons());
    m.put("stillPending", r.stillPending());
    m.put("samples", r.samples());
    return JSON.writeValueAsString(m);
  }

  // ---- HTML -----------------------------------------------------------------------------------

  /**
   * Writes {@code dir/index.html}, ending with the scenario's text (null: left out) so that the
   * report says what was simulated; returns the file.
   */
  public static Path html(SimResult r, Path dir, String scenarioText) throws IOException {
    HtmlPage page = new HtmlPage("jdra simulate: " + r.scenario());
    SimResult.PodCounts c = r.pods();
    page.paragraph(
        String.format(
            Locale.ROOT,
            "Seed %d, %s of simulated time, sampled every %s. %d pods created, %d scheduled, %d"
                + " completed, %d deleted while pending, %d deleted while running; %d running"
                + " and %d pending at the end. Scheduling attempts: %d scheduled, %d"
                + " unschedulable, %d error.",
            r.seed(),
            Durations.formatSeconds(r.end().toMillis() / 1000.0),
            Durations.format(r.sampleInterval()),
            c.created(),
            c.scheduled(),
            c.completed(),
            c.deletedPending(),
            c.deletedRunning(),
            c.runningAtEnd(),
            c.pendingAtEnd(),
            r.attempts().get("scheduled"),
            r.attempts().get("unschedulable"),
            r.attempts().get("error")));
    double[] t = r.samples().stream().mapToDouble(SimResult.Sample::seconds).toArray();
    page.chart(
        LineChart.builder("Pods pending and running")
            .axes("simulated time", "pods")
            .timeAxis()
            .series("pending", t, ints(r, SimResult.Sample::pending))
            .series("running", t, ints(r, SimResult.Sample::running))
            .build());
    page.chart(
        LineChart.builder("Pods scheduled over time (cumulative)")
            .axes("simulated time", "pods")
            .timeAxis()
            .series("scheduled (total)", t, ints(r, SimResult.Sample::scheduled))
            .series("completed (total)", t, ints(r, SimResult.Sample::completed))
            .build());
    LineChart.Builder util =
        LineChart.builder("Device utilisation")
            .axes("simulated time", "used units")
            .timeAxis()
            .yMax(1)
            .yFormat(v -> Math.round(v * 100) + "%");
    for (SimResult.DeviceStats ds : r.devices()) {
      util.series(
          ds.driver(),
          t,
          r.samples().stream().mapToDouble(s -> s.utilisation().get(ds.driver())).toArray());
    }
    page.chart(util.build());
    LineChart.Builder frag =
        LineChart.builder("Fragmentation: share of free units a pod cannot use")
            .axes("simulated time", "stranded free units")
            .timeAxis()
            .yMax(1)
            .yFormat(v -> Math.round(v * 100) + "%")
            .series(
                "workload",
                t,
                r.samples().stream().mapToDouble(SimResult.Sample::fragmentation).toArray());
    if (!r.samples().isEmpty()) {
      for (String tmpl : r.samples().get(0).fragmentationByTemplate().keySet()) {
        frag.series(
            tmpl,
            t,
            r.samples().stream()
                .mapToDouble(s -> s.fragmentationByTemplate().getOrDefault(tmpl, 0.0))
                .toArray());
      }
    }
    page.chart(frag.build());
    LineChart.Builder cdf =
        LineChart.builder("Pending time distribution: share of pods bound within a time")
            .axes("pending time (creation to binding)", "pods")
            .timeAxis()
            .yMax(1)
            .yFormat(v -> Math.round(v * 100) + "%");
    double[] fractions = new double[101];
    for (int i = 0; i <= 100; i++) {
      fractions[i] = i / 100.0;
    }
    for (Map.Entry<String, List<Double>> e : r.pendingPercentiles().entrySet()) {
      if (!e.getValue().isEmpty()) {
        cdf.series(
            e.getKey(),
            e.getValue().stream().mapToDouble(Double::doubleValue).toArray(),
            fractions);
      }
    }
    page.chart(cdf.build());
    page.heading("Pending time (creation to binding)");
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<String, SimResult.Stats> e : r.pending().entrySet()) {
      SimResult.Stats s = e.getValue();
      rows.add(
          List.of(
              e.getKey(),
              Integer.toString(s.count()),
              d(s, s.mean()),
              d(s, s.p50()),
              d(s, s.p90()),
              d(s, s.p95()),
              d(s, s.p99()),
              d(s, s.max())));
    }
    page.table(List.of("template", "pods", "mean", "p50", "p90", "p95", "p99", "max"), rows);
    page.heading("Devices");
    List<List<String>> dev = new ArrayList<>();
    for (SimResult.DeviceStats ds : r.devices()) {
      dev.add(
          List.of(
              ds.driver(),
              Integer.toString(ds.units()),
              pct(ds.meanUtilisation()),
              pct(ds.peakUtilisation())));
    }
    page.table(List.of("driver", "units", "mean utilisation", "peak utilisation"), dev);
    page.note(
        "A unit is a device, or for partitionable devices one counter set (a physical GPU), used by"
            + " the share of its counters that allocated partitions consume. Fragmentation: of the"
            + " free units (of the drivers a template's pods got devices from) on the nodes that"
            + " could take a pod of the template when empty, the share on nodes where the"
            + " scheduler (Filter, with the allocator) would not place one now; templates that fit"
            + " no node are left out; the workload line weights templates by their pod counts."
            + " Mean "
            + pct(r.fragmentation().mean())
            + ", max "
            + pct(r.fragmentation().max())
            + ".");
    if (!r.reasons().isEmpty()) {
      page.heading("Unschedulable reasons");
      List<List<String>> rr = new ArrayList<>();
      for (SimResult.ReasonGroup g : r.reasons()) {
        rr.add(
            List.of(
                g.template(),
                g.reason(),
                Integer.toString(g.pods()),
                Integer.toString(g.attempts()),
                String.format(Locale.ROOT, "%.1f", g.nodes() / (double) g.attempts()),
                g.example()));
      }
      page.table(
          List.of("template", "reason (per node)", "pods", "attempts", "nodes/attempt", "example"),
          rr);
    }
    if (!r.stillPending().isEmpty()) {
      page.heading("Still pending at the end");
      List<List<String>> sp = new ArrayList<>();
      for (SimResult.StillPending p : r.stillPending()) {
        sp.add(List.of(p.template(), Integer.toString(p.pods()), p.lastMessage()));
      }
      page.table(List.of("template", "pods", "last FailedScheduling message"), sp);
    }
    if (scenarioText != null) {
      page.heading("Scenario");
      page.pre(scenarioText);
    }
    return page.writeTo(dir);
  }

  private static double[] ints(SimResult r, java.util.function.ToIntFunction<SimResult.Sample> f) {
    return Arrays.stream(r.samples().toArray(SimResult.Sample[]::new))
        .mapToDouble(f::applyAsInt)
        .toArray();
  }
}
