package io.jdra.cli;

import io.jdra.api.features.FeatureGates;
import io.jdra.cli.logging.LogFormat;
import io.jdra.cli.logging.LoggingConfig;
import io.jdra.runtime.logging.Verbosity;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * Flags every jdra command accepts. Inherited by subcommands, so {@code jdra -v 4 version} and
 * {@code jdra version -v 4} mean the same.
 */
public final class GlobalOptions {
  /** Verbosity at which a failing command prints the stack trace under its one-line message. */
  static final int STACK_TRACE_VERBOSITY = 5;

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  int verbosity;

  @Option(
      names = {"-v", "--v"},
      paramLabel = "N",
      scope = ScopeType.INHERIT,
      description =
          "Log verbosity as in klog: 0 default, 2 state changes, 3 start/stop, 5 per-object"
              + " decisions and stack traces of errors, 6 dumps.")
  void setVerbosity(int v) {
    if (v < 0) {
      throw new CommandLine.ParameterException(
          mixee.commandLine(), "invalid value for -v: " + v + " (must be >= 0)");
    }
    verbosity = v;
  }

  @Option(
      names = "--logging-format",
      paramLabel = "FORMAT",
      scope = ScopeType.INHERIT,
      description = "Log format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
      defaultValue = "text")
  LogFormat loggingFormat = LogFormat.text;

  @Option(
      names = "--feature-gates",
      paramLabel = "A=true,B=false",
      scope = ScopeType.INHERIT,
      converter = FeatureGatesConverter.class,
      description =
          "Feature gates, upstream names and Kubernetes 1.36 defaults. Gates locked on in 1.36 may"
              + " still be switched off here, to reproduce older behaviour. Known gates:%n"
              + "${jdra.feature-gates}")
  FeatureGates featureGates = FeatureGates.defaults();

  /** The feature gates in effect for this invocation. */
  public FeatureGates featureGates() {
    return featureGates;
  }

  /** The klog-style verbosity of this invocation. */
  public int verbosity() {
    return verbosity;
  }

  void applyLogging() {
    // Verbosity first: the logback configuration may log, and V-loggers read it.
    Verbosity.set(verbosity);
    LoggingConfig.set(new LoggingConfig(verbosity, loggingFormat));
  }

  /** Parses {@code --feature-gates}; its error message is shown as the one-line CLI error. */
  static final class FeatureGatesConverter implements CommandLine.ITypeConverter<FeatureGates> {
    @Override
    public FeatureGates convert(String value) {
      try {
        return FeatureGates.parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }
}
