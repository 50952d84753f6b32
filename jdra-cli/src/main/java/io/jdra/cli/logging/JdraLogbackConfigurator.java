package io.jdra.cli.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.LayoutBase;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.LoggerFactory;

/**
 * Configures logback from {@link LoggingConfig}: one stderr appender in klog text or JSON format.
 * Found by logback through {@code META-INF/services}, so no XML is parsed at start-up.
 */
public final class JdraLogbackConfigurator extends ContextAwareBase implements Configurator {
  private static volatile LoggerContext started;

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    apply(context, LoggingConfig.current());
    started = context;
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  static void reconfigureIfStarted(LoggingConfig config) {
    LoggerContext ctx = started;
    if (ctx != null) {
      apply(ctx, config);
    }
  }

  private static synchronized void apply(LoggerContext context, LoggingConfig config) {
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.detachAndStopAllAppenders();
    LayoutBase<ILoggingEvent> layout =
        config.format() == LogFormat.json ? new JsonLayout() : new KlogTextLayout();
    layout.setContext(context);
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.start();
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setName("stderr");
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();
    root.addAppender(appender);
    root.setLevel(config.level());
    // Third-party libraries stay at INFO unless the user asks for dumps.
    Logger thirdParty = context.getLogger("io.vertx");
    thirdParty.setLevel(
        config.verbosity() >= 6 ? config.level() : ch.qos.logback.classic.Level.WARN);
    // grpc-java asks for SO_KEEPALIVE on every channel; on the kubelet plugin's Unix domain
    // sockets Netty's bootstrap warns that the option does not apply, four lines per driver
    // start that say nothing to a user.
    context
        .getLogger("io.grpc.netty.shaded.io.netty.bootstrap")
        .setLevel(config.verbosity() >= 6 ? config.level() : ch.qos.logback.classic.Level.ERROR);
  }

  /** Forces logging start-up now (used by tests and long-running commands). */
  public static void ensureStarted() {
    LoggerFactory.getILoggerFactory();
  }
}
