package io.jdra.cli.logging;

import ch.qos.logback.classic.Level;

/**
 * The logging flags of this process. Set once after the command line parsed; read by {@link
 * JdraLogbackConfigurator} when the first logger is created, so commands that never log (such as
 * {@code --help}) do not pay for logging start-up.
 *
 * <p>Verbosity maps onto levels like klog's: {@code -v 0..1} INFO, {@code 2..4} DEBUG, {@code 5+}
 * TRACE. Warnings and errors are always shown.
 */
public record LoggingConfig(int verbosity, LogFormat format) {
  private static volatile LoggingConfig current = new LoggingConfig(0, LogFormat.text);

  public LoggingConfig {
    if (verbosity < 0) {
      throw new IllegalArgumentException("verbosity must be >= 0, got " + verbosity);
    }
  }

  /** Records the configuration and, if logging already started, applies it right away. */
  public static void set(LoggingConfig config) {
    current = config;
    JdraLogbackConfigurator.reconfigureIfStarted(config);
  }

  public static LoggingConfig current() {
    return current;
  }

  /** The most detailed level shown at this verbosity. */
  public Level level() {
    if (verbosity >= 5) {
      return Level.TRACE;
    }
    return verbosity >= 2 ? Level.DEBUG : Level.INFO;
  }
}
