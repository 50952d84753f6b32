package io.jdra.cli;

import io.jdra.api.features.FeatureGates;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The root command; subcommands grow with the project. */
@Command(
    name = "jdra",
    mixinStandardHelpOptions = true,
    versionProvider = BuildInfo.VersionProvider.class,
    description = {
      "Kubernetes Dynamic Resource Allocation (resource.k8s.io/v1) in Java.",
      "Runs, simulates and explains DRA on one machine or against a real cluster."
    },
    subcommands = {
      VersionCommand.class,
      AllocateCommand.class,
      ApiServerCommand.class,
      ExampleDriverCommand.class,
      ExampleControllerCommand.class,
      KubeletCommand.class,
      ControllerManagerCommand.class,
      SchedulerCommand.class,
      ExplainCommand.class,
      UpCommand.class,
      BenchCommand.class,
      SimulateCommand.class,
      CommandLine.HelpCommand.class
    },
    footer = {
      "",
      "Global flags (-v, --logging-format, --feature-gates) are accepted by every subcommand.",
      "Run 'jdra help COMMAND' or 'jdra COMMAND --help' for a command's flags."
    })
final class JdraCommand implements Runnable {
  @Mixin GlobalOptions global;
  @Spec CommandSpec spec;

  @Override
  public void run() {
    // Without a subcommand, show what there is rather than doing nothing silently.
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The configured command line: error handling and output streams as the CLI contract says. */
  static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    // Read by the --feature-gates description (picocli resolves ${jdra.feature-gates}).
    System.setProperty("jdra.feature-gates", FeatureGates.defaults().describe());
    System.setProperty(
        "jdra.controllers",
        io.jdra.controllers.manager.Controllers.known(
            io.jdra.controllers.manager.Controllers.builtIn()));
    CommandLine cl = new CommandLine(new JdraCommand());
    cl.setUsageHelpWidth(100);
    cl.setOut(out);
    cl.setErr(err);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setExecutionStrategy(new Execution());
    cl.setParameterExceptionHandler(new Errors.ParameterHandler());
    cl.setExecutionExceptionHandler(new Errors.ExecutionHandler());
    return cl;
  }

  /** Applies the global options (logging) once parsing succeeded, then runs the command. */
  private static final class Execution implements CommandLine.IExecutionStrategy {
    @Override
    public int execute(CommandLine.ParseResult parseResult) {
      // picocli lets --help hide parse errors ("jdra NOSUCH --help" would print help and exit 0):
      // a word that is no command stays an error.
      for (CommandLine.ParseResult r = parseResult; r != null; r = r.subcommand()) {
        if (!r.unmatched().isEmpty()) {
          throw new CommandLine.UnmatchedArgumentException(
              r.commandSpec().commandLine(), r.unmatched());
        }
      }
      // Inherited options write through to the root command's mixin, wherever they were given.
      ((JdraCommand) parseResult.commandSpec().userObject()).global.applyLogging();
      return new CommandLine.RunLast().execute(parseResult);
    }
  }
}
