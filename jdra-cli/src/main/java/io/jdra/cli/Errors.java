package io.jdra.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * How the CLI reports failures: exit code 1 and one line naming what was wrong. Stack traces appear
 * only at {@code -v 5} or higher, and for bugs (unexpected exceptions) a hint says so.
 */
final class Errors {
  static final int EXIT_ERROR = 1;

  /** An unknown subcommand: a usage error, as kubectl and cobra report it. */
  static final int EXIT_UNKNOWN_COMMAND = 2;

  private Errors() {}

  /** Bad flags or arguments: the one-line message and how to get help. */
  static final class ParameterHandler implements CommandLine.IParameterExceptionHandler {
    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
      CommandLine cl = ex.getCommandLine();
      PrintWriter err = cl.getErr();
      String unknown = unknownCommand(ex);
      if (unknown != null) {
        err.println("error: unknown command " + unknown);
        err.println("Commands: " + String.join(", ", cl.getSubcommands().keySet()));
        err.println("Run '" + cl.getCommandSpec().qualifiedName() + " --help' for usage.");
        return EXIT_UNKNOWN_COMMAND;
      }
      err.println("error: " + oneLine(ex.getMessage()));
      err.println("Run '" + cl.getCommandSpec().qualifiedName() + " --help' for usage.");
      return EXIT_ERROR;
    }
  }

  /** The first unmatched word where a subcommand was expected, or null. */
  private static String unknownCommand(CommandLine.ParameterException ex) {
    if (!(ex instanceof CommandLine.UnmatchedArgumentException u)
        || ex.getCommandLine().getSubcommands().isEmpty()
        || u.getUnmatched().isEmpty()) {
      return null;
    }
    String first = u.getUnmatched().get(0);
    return first.startsWith("-") ? null : first;
  }

  /** Failures while a command runs. */
  static final class ExecutionHandler implements CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(
        Exception ex, CommandLine cl, CommandLine.ParseResult parseResult) {
      PrintWriter err = cl.getErr();
      if (ex instanceof CommandLine.ParameterException pe) {
        return new ParameterHandler().handleParseException(pe, new String[0]);
      }
      boolean userError = ex instanceof UserException;
      String what = userError ? ex.getMessage() : describe(ex);
      err.println("error: " + oneLine(what));
      JdraCommand root = (JdraCommand) cl.getCommandSpec().root().userObject();
      if (root.global.verbosity() >= GlobalOptions.STACK_TRACE_VERBOSITY) {
        StringWriter trace = new StringWriter();
        ex.printStackTrace(new PrintWriter(trace));
        err.print(trace);
      } else if (!userError) {
        err.println("(run with -v " + GlobalOptions.STACK_TRACE_VERBOSITY + " for details)");
      }
      err.flush();
      return ex instanceof UserException ue ? ue.exitCode() : EXIT_ERROR;
    }

    private static String describe(Exception ex) {
      String msg = ex.getMessage();
      return msg == null || msg.isBlank() ? ex.getClass().getSimpleName() : msg;
    }
  }

  /** Messages sometimes span lines (YAML parsers); the CLI contract is one line. */
  static String oneLine(String message) {
    return message == null ? "unknown error" : message.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
