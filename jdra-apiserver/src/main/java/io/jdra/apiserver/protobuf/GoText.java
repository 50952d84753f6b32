package io.jdra.apiserver.protobuf;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How Go's encoding/json writes the apimachinery value types that travel as messages. */
final class GoText {
  /** Seconds of Go's zero time (0001-01-01T00:00:00Z) since the Unix epoch. */
  static final long ZERO_TIME_SECONDS = -62135596800L;

  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private GoText() {}

  /**
   * metav1.Time (micro false) or metav1.MicroTime (micro true) as RFC 3339 in UTC; null for Go's
   * zero time, which those types write as JSON null.
   */
  static String time(long seconds, long nanos, boolean micro) {
    Instant t;
    try {
      t = Instant.ofEpochSecond(seconds, nanos);
    } catch (DateTimeException | ArithmeticException e) {
      throw new Wire.Malformed("Time.MarshalJSON: year outside of range [0,9999]");
    }
    if (t.getEpochSecond() == ZERO_TIME_SECONDS && t.getNano() == 0) {
      return null;
    }
    int year = t.atZone(ZoneOffset.UTC).getYear();
    if (year < 0 || year > 9999) {
      throw new Wire.Malformed("Time.MarshalJSON: year outside of range [0,9999]");
    }
    return (micro ? MICROS : SECONDS).format(t);
  }

  /** A time.Duration (nanoseconds) as Go's Duration.String writes it: "1h2m3.5s", "1.5ms". */
  static String duration(long nanos) {
    if (nanos == 0) {
      return "0s";
    }
    String sign = nanos < 0 ? "-" : "";
    java.math.BigInteger big = java.math.BigInteger.valueOf(nanos).abs();
    if (big.bitLength() > 63) {
      return "-2562047h47m16.854775808s";
    }
    long u = big.longValue();
    if (u < 1_000L) {
      return sign + u + "ns";
    }
    if (u < 1_000_000L) {
      return sign + fraction(u, 3) + "µs";
    }
    if (u < 1_000_000_000L) {
      return sign + fraction(u, 6) + "ms";
    }
    String text = fraction(u % 60_000_000_000L, 9) + "s";
    long minutes = u / 60_000_000_000L;
    if (minutes > 0) {
      text = minutes % 60 + "m" + text;
      if (minutes / 60 > 0) {
        text = minutes / 60 + "h" + text;
      }
    }
    return sign + text;
  }

  /** v / 10^digits with the fraction's trailing zeros (and a bare point) dropped. */
  private static String fraction(long v, int digits) {
    long unit = 1;
    for (int i = 0; i < digits; i++) {
      unit *= 10;
    }
    long frac = v % unit;
    if (frac == 0) {
      return Long.toString(v / unit);
    }
    String f = String.format("%0" + digits + "d", frac).replaceAll("0+$", "");
    return v / unit + "." + f;
  }
}
