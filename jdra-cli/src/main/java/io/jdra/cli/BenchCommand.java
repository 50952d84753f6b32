package io.jdra.cli;

import io.jdra.cli.bench.BenchReport;
import io.jdra.cli.bench.BenchResult;
import io.jdra.cli.bench.Catalog;
import io.jdra.cli.bench.MeasuredRuns;
import io.jdra.cli.bench.RunConditions;
import io.jdra.cli.bench.SchedulerBench;
import io.jdra.cli.bench.Warmup;
import io.jdra.cli.bench.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jdra bench}: benchmarks of whole components; {@code scheduler} is scheduler_perf's. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks of jdra's components, shaped as upstream's.",
    subcommands = {BenchCommand.Scheduler.class, CommandLine.HelpCommand.class})
final class BenchCommand implements Runnable {
  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code jdra bench scheduler}: scheduler_perf's DRA workloads in this process. */
  @Command(
      name = "scheduler",
      mixinStandardHelpOptions = true,
      description = {
        "Run a scheduler_perf DRA workload (test/integration/scheduler_perf/dra) in this process:",
        "embedded API server, ResourceClaim controller and scheduler, unthrottled clients, nodes",
        "and ResourceSlices created directly (no kubelets), objects from upstream's templates.",
        "Workloads come from upstream's performance-config.yaml (--config, or next to the",
        "templates directory) or jdra's built-in description of it (--list shows them).",
        "Prints SchedulingThroughput (pods/s sampled each second), latency percentiles and the",
        "scheduler's attempts; exits 1 if the end state is wrong (a device allocated twice, a",
        "pod not bound, a claim not reserved for its pod, a deleted pod's claim not released) or",
        "the run timed out."
      })
  static final class Scheduler implements Callable<Integer> {
    static final String TEMPLATES =
        "shared/upstream-dra/examples/kubernetes/test/integration/scheduler_perf/dra/templates";

    /** Output formats of the summary. */
    enum Format {
      table,
      json
    }

    @Spec CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--workload",
        paramLabel = "NAME",
        defaultValue = "SchedulingWithResourceClaimTemplate/5000pods_500nodes",
        description =
            "Workload as upstream names it, TestCase/workload, or the workload part alone when"
                + " unambiguous (default: ${DEFAULT-VALUE}).")
    String workload;

    @Option(
        names = "--config",
        paramLabel = "FILE",
        description =
            "A performance-config.yaml in upstream's format; its template paths are relative to"
                + " its directory. Without it: upstream's dra/performance-config.yaml next to the"
                + " templates directory if there, else jdra's built-in description of it.")
    Path config;

    @Option(
        names = "--templates",
        paramLabel = "DIR",
        description =
            "Upstream's scheduler_perf/dra/templates directory (default: ../"
                + TEMPLATES
                + " from the working directory or a parent).")
    Path templates;

    @Option(names = "--list", description = "List the known workloads and exit.")
    boolean list;

    @Option(
        names = "--timeout",
        paramLabel = "DURATION",
        defaultValue = "PT10M",
        description =
            "Give up waiting for pods after this long, ISO-8601 (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(
        names = {"-o", "--output"},
        paramLabel = "FORMAT",
        defaultValue = "table",
        description = "Summary format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Format output;

    @Option(names = "--json", description = "Same as -o json.")
    boolean json;

    @Option(
        names = "--json-file",
        paramLabel = "FILE",
        description = "Also write scheduler_perf's dataItems JSON to FILE.")
    Path jsonFile;

    @Option(
        names = "--report",
        paramLabel = "DIR",
        description =
            "Also write a self-contained HTML report (plots, upstream's numbers) to DIR/index.html.")
    Path report;

    @Option(
        names = "--warmup",
        paramLabel = "N|auto",
        defaultValue = "0",
        description =
            "Run the workload N times before the measured run, in this JVM, each with a fresh API"
                + " server, controller and scheduler, so that the measured run sees compiled code"
                + " as a long-running scheduler does; 'auto' runs it until the JIT compilers took"
                + " at most 3 %% of a run's CPU (at most 20 runs; auto:MAX sets the most). The jdra"
                + " script runs the JVM"
                + " with C1 only without warm-up (a cold start on two cores is mostly C2"
                + " compiling) and with C1 and C2 otherwise. The output says which (default:"
                + " ${DEFAULT-VALUE}).")
    String warmupValue;

    private Warmup warmup;

    /** Warm-up runs made before the measured ones. */
    private int warmedUp;

    @Option(
        names = "--count",
        paramLabel = "N",
        defaultValue = "1",
        description =
            "Measure the workload N times (after the warm-up runs, in this JVM), as go test"
                + " -count does for scheduler_perf: one line per run, then the summary of the run"
                + " with the median SchedulingThroughput average and the averages of all runs"
                + " (default: ${DEFAULT-VALUE}).")
    int count;

    @Option(
        names = {"--jfr", "--cpuprofile"},
        paramLabel = "FILE",
        description =
            "Record a Java Flight Recorder profile (settings 'profile') of the whole run to FILE;"
                + " open it with JDK Mission Control or 'jfr print'.")
    Path jfr;

    @Option(
        names = "--transport",
        paramLabel = "in-process|http",
        converter = TransportConverter.class,
        description =
            "How the components reach the embedded API server: in memory (default, as 'jdra up'"
                + " runs them) or fabric8's HTTP client over loopback.")
    SchedulerBench.Transport transport = SchedulerBench.Transport.IN_PROCESS;

    /** {@code in-process} or {@code http}. */
    static final class TransportConverter
        implements CommandLine.ITypeConverter<SchedulerBench.Transport> {
      @Override
      public SchedulerBench.Transport convert(String v) {
        return switch (v) {
          case "in-process" -> SchedulerBench.Transport.IN_PROCESS;
          case "http" -> SchedulerBench.Transport.HTTP;
          default ->
              throw new CommandLine.TypeConversionException(
                  "unknown transport " + v + " (in-process or http)");
        };
      }
    }

    @Override
    public Integer call() throws Exception {
      Catalog catalog = catalog();
      PrintWriter out = spec.commandLine().getOut();
      if (list) {
        out.println("# from " + catalog.source());
        catalog.names().forEach(out::println);
        out.flush();
        return 0;
      }
      try {
        warmup = Warmup.parse(warmupValue);
      } catch (IllegalArgumentException e) {
        throw new UserException("--warmup: " + e.getMessage());
      }
      if (count < 1) {
        throw new UserException("--count: must be >= 1, got " + count);
      }
      Workload w;
      try {
        w = catalog.byName(workload);
      } catch (IllegalArgumentException e) {
        throw new UserException("--workload: " + e.getMessage());
      }
      PrintWriter err = spec.commandLine().getErr();
      err.printf("running %s (from %s)%n", w.name(), catalog.source());
      err.printf(
          "transport: %s%n", transport == SchedulerBench.Transport.HTTP ? "http" : "in-process");
      err.flush();
      try {
        BenchResult wrong = warmUp(w, err);
        if (wrong != null) {
          wrong.printTable(out);
          return 1;
        }
      } catch (IllegalArgumentException e) {
        throw new UserException(e.getMessage(), Errors.EXIT_ERROR, e);
      }
      List<BenchResult> runs = new ArrayList<>();
      try (Recording rec = jfr == null ? null : startRecording()) {
        for (int i = 1; i <= count; i++) {
          BenchResult r = runOnce(w, err, warmedUp + i - 1);
          runs.add(r);
          if (count > 1) {
            err.printf("measured run %d/%d: %s%n", i, count, r.summaryLine());
            err.flush();
          }
          if (!r.ok()) {
            break;
          }
        }
        if (rec != null) {
          rec.stop();
          err.printf("JFR profile written to %s%n", jfr);
        }
      } catch (IllegalArgumentException e) {
        // A template or config that cannot be read: what and where, no stack trace.
        throw new UserException(e.getMessage(), Errors.EXIT_ERROR, e);
      }
      BenchResult r = MeasuredRuns.reported(runs);
      if (json || output == Format.json) {
        out.println(r.json());
        out.flush();
      } else {
        r.printTable(out);
      }
      if (runs.size() > 1 && r.ok()) {
        PrintWriter summary = json || output == Format.json ? err : out;
        summary.println(MeasuredRuns.summary(runs));
        summary.flush();
      }
      if (jsonFile != null) {
        Files.writeString(jsonFile, r.json() + "\n", StandardCharsets.UTF_8);
      }
      if (report != null) {
        Path file = BenchReport.write(r, report);
        err.printf("report written to %s%n", file);
        err.flush();
      }
      return r.ok() ? 0 : 1;
    }

    /**
     * Runs the warm-up runs, one progress line each; returns the first whose end state is wrong (a
     * bug worth seeing at once), else null.
     */
    private BenchResult warmUp(Workload w, PrintWriter err) throws Exception {
      double jitShare = Double.NaN;
      while (warmup.another(warmedUp, jitShare)) {
        BenchResult r = runOnce(w, err, warmedUp);
        warmedUp++;
        jitShare = r.jitShare();
        err.printf(
            "warm-up run %s: %s%s%n",
            warmup.label(warmedUp),
            r.summaryLine(),
            warmup.auto() ? ", JIT " + Warmup.percent(jitShare) + " of CPU" : "");
        err.flush();
        if (!r.ok()) {
          err.printf("warm-up run %d ended in a wrong state; not measuring%n", warmedUp);
          return r;
        }
      }
      if (warmup.auto() && !(jitShare <= Warmup.AUTO_JIT_SHARE)) {
        err.printf(
            "warm-up: the JIT compilers still took %s of the last run's CPU after %d runs;"
                + " measuring anyway%n",
            Warmup.percent(jitShare), warmedUp);
        err.flush();
      }
      return null;
    }

    /** One run of the workload, with fresh components, after {@code runsBefore} in this JVM. */
    private BenchResult runOnce(Workload w, PrintWriter err, int runsBefore) throws Exception {
      return new SchedulerBench(w, timeout, err, RunConditions.current(runsBefore))
          .withTransport(transport)
          .run();
    }

    private Recording startRecording() throws IOException {
      Recording rec;
      try {
        rec = new Recording(Configuration.getConfiguration("profile"));
      } catch (java.text.ParseException e) {
        throw new IOException("JFR settings 'profile': " + e.getMessage(), e);
      }
      rec.setName("jdra bench scheduler");
      // JDK 25's CPU-time sampler counts only threads on a CPU; the execution sampler also
      // counts preempted threads, which misattributes on a loaded two-core machine. Older JDKs
      // ignore the unknown event name.
      rec.enable("jdk.CPUTimeSample").with("throttle", "10ms");
      rec.setDestination(jfr);
      rec.start();
      return rec;
    }

    private Catalog catalog() throws IOException {
      if (config != null) {
        if (!Files.isRegularFile(config)) {
          throw new UserException("--config " + config + ": no such file");
        }
        try {
          return Catalog.fromFile(config);
        } catch (IllegalArgumentException e) {
          throw new UserException("--config " + e.getMessage());
        }
      }
      return Catalog.builtin(templatesDir());
    }

    private Path templatesDir() {
      if (templates != null) {
        if (!Files.isRegularFile(templates.resolve("pod-with-claim-template.yaml"))) {
          throw new UserException(
              "--templates " + templates + ": no pod-with-claim-template.yaml there");
        }
        return templates;
      }
      return find(Path.of("").toAbsolutePath());
    }

    /** The templates under {@code dir} or its nearest parent that has them, or null. */
    static Path find(Path dir) {
      for (Path p = dir; p != null; p = p.getParent()) {
        Path t = p.resolve(TEMPLATES);
        if (Files.isDirectory(t)) {
          return t;
        }
      }
      return null;
    }
  }
}
