package io.jdra.apiserver.rest;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.random.RandomGenerator;

/** Name generation and timestamps as upstream does them. Thread-safe. */
public final class Names {
  /** upstream's utilrand alphabet: no vowels (no words), no confusable characters. */
  private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

  private static final RandomGenerator RANDOM = new SecureRandom();

  private Names() {}

  /** {@code base} plus 5 random characters, as {@code metadata.generateName} does. */
  public static String generate(String base) {
    if (base.length() > 58) {
      base = base.substring(0, 58);
    }
    StringBuilder sb = new StringBuilder(base);
    for (int i = 0; i < 5; i++) {
      sb.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    }
    return sb.toString();
  }

  /** RFC 3339 with second precision, as metav1.Time serializes. */
  public static String timestamp(Instant t) {
    // Creates and bindings come many per second: each second is formatted once (the text
    // depends on the second alone).
    long second = t.getEpochSecond();
    FormattedSecond last = lastSecond;
    if (last == null || last.second != second) {
      last = new FormattedSecond(second, format(t));
      lastSecond = last;
    }
    return last.text;
  }

  /** The formatting {@link #timestamp} remembers (for tests). */
  static String format(Instant t) {
    return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  private record FormattedSecond(long second, String text) {}

  private static volatile FormattedSecond lastSecond;
}
