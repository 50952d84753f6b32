package io.jdra.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.LayoutBase;
import org.slf4j.event.KeyValuePair;

/**
 * Kubernetes' JSON log format: one object per line with {@code ts} (seconds since the epoch),
 * {@code caller} (the logger), {@code msg}, {@code v} (verbosity; absent for errors), the key/value
 * pairs, and {@code err} for an attached exception.
 */
final class JsonLayout extends LayoutBase<ILoggingEvent> {
  @Override
  public String doLayout(ILoggingEvent e) {
    StringBuilder b = new StringBuilder(160);
    java.time.Instant at = e.getInstant();
    // Plain decimal seconds with microseconds (a double would print in E notation).
    b.append("{\"ts\":").append(at.getEpochSecond()).append('.');
    String micros = Integer.toString(at.getNano() / 1000);
    b.append("000000", micros.length(), 6).append(micros).append(",\"caller\":");
    Values.appendQuoted(b, KlogTextLayout.shortName(e.getLoggerName()));
    b.append(",\"msg\":");
    Values.appendQuoted(b, e.getFormattedMessage());
    int v = verbosity(e.getLevel());
    if (v >= 0) {
      b.append(",\"v\":").append(v);
    }
    if (e.getKeyValuePairs() != null) {
      for (KeyValuePair kv : e.getKeyValuePairs()) {
        b.append(',');
        Values.appendQuoted(b, kv.key);
        b.append(':');
        Values.appendJson(b, kv.value);
      }
    }
    IThrowableProxy t = e.getThrowableProxy();
    if (t != null) {
      b.append(",\"err\":");
      Values.appendQuoted(b, t.getMessage() == null ? t.getClassName() : t.getMessage());
    }
    return b.append('}').append(System.lineSeparator()).toString();
  }

  /** Errors carry no verbosity in Kubernetes' JSON logs; debug and trace map to 2 and 5. */
  private static int verbosity(Level level) {
    return switch (level.toInt()) {
      case Level.ERROR_INT -> -1;
      case Level.DEBUG_INT -> 2;
      case Level.TRACE_INT -> 5;
      default -> 0;
    };
  }
}
