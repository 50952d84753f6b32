package io.jdra.kubelet.sim;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's time.ParseDuration for the forms annotations use ({@code 1h2m3.5s}, {@code 250ms}) and
 * Duration.String for whole seconds ({@code 10s}, {@code 5m0s}), as upstream's messages print them.
 */
final class GoDuration {
  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

  private GoDuration() {}

  static Duration parse(String s) {
    String text = s.trim();
    if (text.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = PART.matcher(text);
    double nanos = 0;
    int end = 0;
    while (m.find()) {
      if (m.start() != end) {
        break;
      }
      end = m.end();
      double v = Double.parseDouble(m.group(1));
      nanos +=
          v
              * switch (m.group(2)) {
                case "ns" -> 1;
                case "us", "µs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                default -> 3600e9;
              };
    }
    if (end != text.length() || end == 0) {
      throw new IllegalArgumentException("time: invalid duration \"" + s + "\"");
    }
    return Duration.ofNanos((long) nanos);
  }

  /** Go's Duration.String, to the second: {@code 40s}, {@code 2m40s}, {@code 1h0m0s}. */
  static String format(Duration d) {
    long s = d.toSeconds();
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return (s / 60) + "m" + (s % 60) + "s";
    }
    return (s / 3600) + "h" + (s % 3600 / 60) + "m" + (s % 60) + "s";
  }
}
