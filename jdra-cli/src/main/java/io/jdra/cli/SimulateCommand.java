package io.jdra.cli;

import io.jdra.api.features.FeatureGates;
import io.jdra.cli.simulate.Reports;
import io.jdra.cli.simulate.Scenario;
import io.jdra.cli.simulate.ScenarioException;
import io.jdra.cli.simulate.ScenarioReader;
import io.jdra.cli.simulate.SimResult;
import io.jdra.cli.simulate.Simulation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code jdra simulate -f SCENARIO}: a workload on a described cluster, on simulated time. */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = {
      "Simulate a workload on a cluster described in a YAML scenario (docs/SIMULATE.md), on",
      "simulated time, with the real scheduler framework and allocator; report pods scheduled",
      "over time, pending time percentiles, device utilisation and fragmentation, and why pods",
      "were unschedulable. Same scenario and seed, same result. Examples: examples/simulate/."
    })
final class SimulateCommand implements Callable<Integer> {
  @ParentCommand JdraCommand parent;
  @Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = {"-f", "--filename"},
      required = true,
      paramLabel = "SCENARIO",
      description = "The scenario file (YAML).")
  Path file;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      defaultValue = "text",
      description = "text (default) or json.")
  String output;

  @Option(
      names = "--report",
      paramLabel = "DIR",
      description = "Also write a self-contained HTML report to DIR/index.html.")
  Path report;

  @Option(names = "--seed", paramLabel = "N", description = "Override the scenario's seed.")
  Long seed;

  @Override
  public Integer call() throws IOException {
    if (!output.equals("text") && !output.equals("json")) {
      throw new UserException("--output: must be text or json, not \"" + output + "\"");
    }
    if (!Files.isRegularFile(file)) {
      throw new UserException("read " + file + ": no such file");
    }
    Scenario s;
    try {
      s = ScenarioReader.read(file, ExampleDriverCommand::parseFlags);
    } catch (ScenarioException e) {
      throw new UserException(e.getMessage(), e);
    }
    if (seed != null) {
      s = s.withSeed(seed);
    }
    FeatureGates gates = parent.global.featureGates();
    long start = System.nanoTime();
    SimResult r = Simulation.run(s, ExampleDriverCommand::parseFlags, gates);
    double wall = (System.nanoTime() - start) / 1e9;
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (output.equals("json")) {
      out.println(Reports.json(r));
      out.flush();
    } else {
      Reports.text(r, out);
    }
    err.printf(
        Locale.ROOT,
        "simulated %s in %.2f s of wall time (%.0fx)%n",
        io.jdra.cli.htmlreport.LineChart.duration(r.end().toSeconds()),
        wall,
        r.end().toMillis() / 1000.0 / Math.max(wall, 1e-3));
    if (report != null) {
      Path written = Reports.html(r, report, Files.readString(file));
      err.println("report: " + written);
    }
    err.flush();
    return 0;
  }
}
