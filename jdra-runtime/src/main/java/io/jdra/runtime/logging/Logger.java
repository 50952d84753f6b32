package io.jdra.runtime.logging;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.helpers.NOPLogger;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * A contextual, immutable logger in the style of logr/klog: a constant, capitalised message plus
 * alternating key/value pairs ({@code logger.info("Claim allocated", "claim", Klog.kobj(c))}).
 * Values added with {@link #withValues} are written with every message of the derived logger. A key
 * given twice is written once, with its last value (klog's merge of WithValues and call pairs), so
 * that components which each add {@code node} or {@code driverName} do not repeat them.
 *
 * <p>Verbosity follows klog: {@code v(0)} and {@link #error} are always written, {@code v(n)} only
 * when the process verbosity ({@link Verbosity}) is at least n. Conventional levels: 2 state
 * changes, 3 start/stop and own activity of helpers, 5 per-object decisions, 6 dumps.
 *
 * <p>Messages go through slf4j 2 with key/value pairs (the CLI's klog text and JSON layouts render
 * them); V-levels map onto slf4j levels as the CLI configures them (0-1 INFO, 2-4 DEBUG, 5+ TRACE).
 * Thread-safe.
 */
public final class Logger {
  private static final Logger DISCARD = new Logger(NOPLogger.NOP_LOGGER, "", List.of(), 0, true);

  private final org.slf4j.Logger delegate;
  private final String name;
  private final List<Object> values;
  private final int level;
  private final boolean discard;

  private Logger(
      org.slf4j.Logger delegate, String name, List<Object> values, int level, boolean discard) {
    this.delegate = delegate;
    this.name = name;
    this.values = values;
    this.level = level;
    this.discard = discard;
  }

  /** A root logger with this name (slf4j logger {@code name}). */
  public static Logger named(String name) {
    return new Logger(LoggerFactory.getLogger(name), name, List.of(), 0, false);
  }

  /** A logger that writes nothing, for tests and callers that do not care. */
  public static Logger discard() {
    return DISCARD;
  }

  /** A child logger named "{@code parent/child}", as logr's WithName. */
  public Logger withName(String child) {
    if (discard) {
      return this;
    }
    String n = name.isEmpty() ? child : name + "/" + child;
    return new Logger(LoggerFactory.getLogger(n), n, values, level, false);
  }

  /** A logger that adds these key/value pairs to every message. */
  public Logger withValues(Object... kv) {
    if (discard || kv.length == 0) {
      return this;
    }
    // merge returns a new list no one else holds: wrapping it is enough (a copy per controller
    // sync showed in profiles).
    return new Logger(
        delegate, name, Collections.unmodifiableList(nullSafe(merge(values, kv))), level, false);
  }

  /** A logger whose info messages are written only at process verbosity >= level. */
  public Logger v(int level) {
    if (level < 0) {
      throw new IllegalArgumentException("V-level must be >= 0, got " + level);
    }
    return new Logger(delegate, name, values, level, discard);
  }

  /** Whether {@link #info} writes anything. */
  public boolean enabled() {
    return !discard && Verbosity.enabled(level) && delegate.isEnabledForLevel(slf4jLevel());
  }

  public String name() {
    return name;
  }

  /** Writes an informational message at this logger's V-level. */
  public void info(String msg, Object... kv) {
    if (enabled()) {
      log(delegate.atLevel(slf4jLevel()), msg, kv);
    }
  }

  /** Writes an error regardless of verbosity, with the error under key "err" (as klog). */
  public void error(Throwable err, String msg, Object... kv) {
    if (discard) {
      return;
    }
    LoggingEventBuilder b = delegate.atError();
    if (err != null) {
      b = b.addKeyValue("err", String.valueOf(err.getMessage() != null ? err.getMessage() : err));
      b = b.setCause(err);
    }
    log(b, msg, kv);
  }

  private void log(LoggingEventBuilder b, String msg, Object[] kv) {
    b = b.setMessage(msg);
    b = addPairs(b, values.isEmpty() ? kv : merge(values, kv).toArray());
    b.log();
  }

  /**
   * {@code base} followed by {@code kv}, where a key of {@code kv} already in {@code base} replaces
   * that value in place instead of being appended. A dangling key keeps its place at the end.
   */
  static List<Object> merge(List<Object> base, Object[] kv) {
    List<Object> all = new ArrayList<>(base.size() + kv.length);
    all.addAll(base);
    for (int i = 0; i < kv.length; i += 2) {
      Object key = kv[i];
      int at = i + 1 < kv.length ? keyIndex(all, key) : -1;
      if (at >= 0) {
        all.set(at + 1, kv[i + 1]);
      } else {
        all.addAll(Arrays.asList(kv).subList(i, Math.min(i + 2, kv.length)));
      }
    }
    return all;
  }

  private static int keyIndex(List<Object> pairs, Object key) {
    for (int i = 0; i + 1 < pairs.size(); i += 2) {
      if (String.valueOf(pairs.get(i)).equals(String.valueOf(key))) {
        return i;
      }
    }
    return -1;
  }

  private static LoggingEventBuilder addPairs(LoggingEventBuilder b, Object[] kv) {
    for (int i = 0; i < kv.length; i += 2) {
      String key = String.valueOf(kv[i]);
      Object value = i + 1 < kv.length ? kv[i + 1] : "(MISSING)";
      b = b.addKeyValue(key, value == null ? "<nil>" : value);
    }
    return b;
  }

  private Level slf4jLevel() {
    if (level >= 5) {
      return Level.TRACE;
    }
    return level >= 2 ? Level.DEBUG : Level.INFO;
  }

  private static List<Object> nullSafe(List<Object> l) {
    l.replaceAll(o -> o == null ? "<nil>" : o);
    return l;
  }
}
