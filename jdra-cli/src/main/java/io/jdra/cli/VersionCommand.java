package io.jdra.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jdra version}: what this build is, as text or JSON. */
@Command(
    name = "version",
    mixinStandardHelpOptions = true,
    description = "Print the jdra version, the Kubernetes release it follows and the Java runtime.")
final class VersionCommand implements Callable<Integer> {
  enum Output {
    text,
    json
  }

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
      defaultValue = "text")
  Output output;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    BuildInfo b = BuildInfo.current();
    PrintWriter out = spec.commandLine().getOut();
    if (output == Output.json) {
      out.printf(
          "{\"jdraVersion\":\"%s\",\"kubernetesVersion\":\"%s\",\"apiVersion\":\"%s\",\"java\":\"%s\"}%n",
          b.version(), b.kubernetesVersion(), b.apiVersion(), jsonEscape(b.java()));
    } else {
      out.println("jdra version: " + b.version());
      out.println("Kubernetes semantics: " + b.kubernetesVersion());
      out.println("DRA API: " + b.apiVersion());
      out.println("Java: " + b.java());
    }
    out.flush();
    return 0;
  }

  private static String jsonEscape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
