package io.jdra.cli;

import io.jdra.cli.bench.BenchResult;
import io.jdra.cli.bench.SchedulerBench;
import io.jdra.cli.bench.Workload;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
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
        "and ResourceSlices created directly (no kubelets), pods from upstream's templates.",
        "Prints SchedulingThroughput (pods/s sampled each second), create-to-bound latency and",
        "the scheduler's attempts; exits non-zero if the end state is wrong (a device allocated",
        "twice, a measured pod not bound, a claim not reserved for its pod)."
      })
  static final class Scheduler implements Callable<Integer> {
    static final String TEMPLATES =
        "shared/upstream-dra/examples/kubernetes/test/integration/scheduler_perf/dra/templates";

    @Spec CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--workload",
        paramLabel = "NAME",
        defaultValue = "SchedulingWithResourceClaimTemplate/5000pods_500nodes",
        description =
            "Workload, as upstream names it (default: ${DEFAULT-VALUE}). Known: ${jdra.bench-workloads}.")
    String workload;

    @Option(
        names = "--templates",
        paramLabel = "DIR",
        description =
            "upstream's scheduler_perf/dra/templates directory (default: ../"
                + TEMPLATES
                + " or"
                + " ../../"
                + TEMPLATES
                + " from the working directory).")
    Path templates;

    @Option(
        names = "--timeout",
        paramLabel = "DURATION",
        defaultValue = "PT5M",
        description =
            "Give up on scheduling after this long, ISO-8601 (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(
        names = "--json",
        description = "Print scheduler_perf's dataItems JSON instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      Workload w;
      try {
        w = Workload.byName(workload);
      } catch (IllegalArgumentException e) {
        throw new UserException("--workload: " + e.getMessage());
      }
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      BenchResult r = new SchedulerBench(w, templatesDir(), timeout, err).run();
      if (json) {
        out.println(r.json());
        out.flush();
      } else {
        r.printTable(out);
      }
      return r.ok() ? 0 : 1;
    }

    private Path templatesDir() {
      if (templates != null) {
        if (!Files.isRegularFile(templates.resolve("pod-with-claim-template.yaml"))) {
          throw new UserException(
              "--templates " + templates + ": no pod-with-claim-template.yaml there");
        }
        return templates;
      }
      Path found = find(Path.of("").toAbsolutePath());
      if (found != null) {
        return found;
      }
      throw new UserException(
          "upstream's scheduler_perf templates ("
              + TEMPLATES
              + ") not in the working directory nor a parent; pass --templates DIR");
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
