package io.jdra.cli;

import java.io.PrintWriter;

/** Process entry point of the {@code jdra} command. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    int code = run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
    System.exit(code);
  }

  /**
   * Runs the command line without exiting the JVM, so tests can call it.
   *
   * @return the exit code: 0 success, 1 user or runtime error, others as a subcommand defines
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return JdraCommand.commandLine(out, err).execute(args);
  }
}
