package io.jdra.cli.simulate;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go duration strings ({@code 90s}, {@code 1h30m}, {@code 1.5h}, {@code 500ms}) both ways. */
final class Durations {
  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");
  private static final Map<String, Double> NANOS =
      Map.of("ns", 1d, "us", 1e3, "µs", 1e3, "ms", 1e6, "s", 1e9, "m", 60e9, "h", 3600e9);

  private Durations() {}

  /**
   * Parses a Go duration; no sign allowed (scenario times are never negative).
   *
   * @throws IllegalArgumentException with Go's wording when {@code s} is not one
   */
  static Duration parse(String s) {
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = PART.matcher(s);
    int pos = 0;
    double nanos = 0;
    while (pos < s.length() && m.find(pos) && m.start() == pos) {
      nanos += Double.parseDouble(m.group(1)) * NANOS.get(m.group(2));
      pos = m.end();
    }
    if (pos != s.length() || s.isEmpty()) {
      throw new IllegalArgumentException("invalid duration \"" + s + "\" (e.g. 90s, 1h30m, 1.5h)");
    }
    return Duration.ofNanos((long) nanos);
  }

  /** As Go prints it, rounded to milliseconds: {@code 1h2m3s}, {@code 1.5s}, {@code 0s}. */
  static String format(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    long h = ms / 3_600_000;
    long m = ms / 60_000 % 60;
    long s = ms / 1000 % 60;
    long rest = ms % 1000;
    if (h > 0) {
      sb.append(h).append('h');
    }
    if (h > 0 || m > 0) {
      sb.append(m).append('m');
    }
    sb.append(s);
    if (rest > 0) {
      sb.append('.').append(String.format("%03d", rest).replaceAll("0+$", ""));
    }
    return sb.append('s').toString();
  }

  /**
   * Seconds as a short duration string: whole seconds from a minute on ({@code 1h3m22s}), tenths
   * below ({@code 49.9s}).
   */
  static String formatSeconds(double seconds) {
    if (seconds >= 60) {
      return format(Duration.ofSeconds(Math.round(seconds)));
    }
    return format(Duration.ofMillis(Math.round(seconds * 10) * 100));
  }
}
