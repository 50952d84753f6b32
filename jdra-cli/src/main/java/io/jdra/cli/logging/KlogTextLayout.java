package io.jdra.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.LayoutBase;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import org.slf4j.event.KeyValuePair;

/**
 * klog's text format: {@code I1121 23:49:38.123456 12 ResourceClaimController] "Claim allocated"
 * claim="default/c1" node="n1"}. Severity letter, month-day, time with microseconds, thread id,
 * logger, the quoted message, then key/value pairs (strings quoted, numbers and booleans bare).
 */
final class KlogTextLayout extends LayoutBase<ILoggingEvent> {
  private static final DateTimeFormatter HEADER =
      DateTimeFormatter.ofPattern("MMdd HH:mm:ss.SSSSSS").withZone(ZoneId.systemDefault());

  @Override
  public String doLayout(ILoggingEvent e) {
    StringBuilder b = new StringBuilder(128);
    b.append(severity(e.getLevel()))
        .append(HEADER.format(e.getInstant()))
        .append(' ')
        .append(String.format("%7d", Thread.currentThread().threadId()))
        .append(' ')
        .append(shortName(e.getLoggerName()))
        .append("] ");
    Values.appendQuoted(b, e.getFormattedMessage());
    if (e.getKeyValuePairs() != null) {
      for (KeyValuePair kv : e.getKeyValuePairs()) {
        b.append(' ').append(kv.key).append('=');
        Values.appendText(b, kv.value);
      }
    }
    IThrowableProxy t = e.getThrowableProxy();
    if (t != null) {
      b.append(" err=");
      Values.appendQuoted(b, t.getMessage() == null ? t.getClassName() : t.getMessage());
    }
    b.append(System.lineSeparator());
    if (t != null && e.getLevel().isGreaterOrEqual(Level.WARN)) {
      // klog has no stack traces, but a Java warning or error with a cause is a bug report's
      // starting point (Vert.x's blocked-thread warning carries the blocked thread's stack).
      b.append(ThrowableProxyUtil.asString(t)).append(System.lineSeparator());
    }
    return b.toString();
  }

  static char severity(Level level) {
    return switch (level.toInt()) {
      case Level.ERROR_INT -> 'E';
      case Level.WARN_INT -> 'W';
      default -> 'I';
    };
  }

  static String shortName(String loggerName) {
    int dot = loggerName.lastIndexOf('.');
    return dot < 0 ? loggerName : loggerName.substring(dot + 1);
  }
}
