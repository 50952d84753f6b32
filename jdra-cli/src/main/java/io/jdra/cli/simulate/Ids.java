package io.jdra.cli.simulate;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Deterministic UIDs and name suffixes, so that a seed gives the same run every time. */
final class Ids {
  private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789"; // as apiserver's

  private Ids() {}

  static String uid(String kind, String name) {
    return UUID.nameUUIDFromBytes((kind + "/" + name).getBytes(StandardCharsets.UTF_8)).toString();
  }

  /** A 5-character suffix like generateName's, distinct for every {@code n} below 27^5. */
  static String suffix(long n) {
    char[] c = new char[5];
    long x = n;
    for (int i = 4; i >= 0; i--) {
      c[i] = ALPHANUMS.charAt((int) (x % ALPHANUMS.length()));
      x /= ALPHANUMS.length();
    }
    return new String(c);
  }
}
