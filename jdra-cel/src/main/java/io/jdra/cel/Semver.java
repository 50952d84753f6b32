package io.jdra.cel;

import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.values.CelValue;
import io.jdra.api.validation.GoFormat;
import java.util.ArrayList;
import java.util.List;

/**
 * A semantic version as the CEL type {@code kubernetes.Semver}: parsing, ordering and printing
 * follow the Go library Kubernetes uses (github.com/blang/semver/v4), including its error texts.
 * Equality and ordering ignore build metadata, as upstream does. Immutable.
 */
final class Semver extends CelValue implements Comparable<Semver> {
  static final OpaqueType TYPE = OpaqueType.create("kubernetes.Semver");

  private static final String NUMBERS = "0123456789";
  private static final String ALPHANUM =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-" + NUMBERS;

  private final long major;
  private final long minor;
  private final long patch;
  private final List<Object> pre; // Long (numeric) or String (alphanumeric) identifiers
  private final List<String> build;

  private Semver(long major, long minor, long patch, List<Object> pre, List<String> build) {
    this.major = major;
    this.minor = minor;
    this.patch = patch;
    this.pre = List.copyOf(pre);
    this.build = List.copyOf(build);
  }

  long major() {
    return major;
  }

  long minor() {
    return minor;
  }

  long patch() {
    return patch;
  }

  /**
   * Parsed versions by text (devices publish few distinct versions). Bounded; cleared when full.
   */
  private static final java.util.concurrent.ConcurrentHashMap<String, Semver> PARSED =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static final int MAX_PARSED = 4096;

  /** Strict parsing as semver.Parse; throws IllegalArgumentException with the Go message. */
  static Semver parse(String s) {
    Semver v = PARSED.get(s);
    if (v == null) {
      v = parseUncached(s);
      if (PARSED.size() >= MAX_PARSED) {
        PARSED.clear();
      }
      PARSED.put(s, v);
    }
    return v;
  }

  private static Semver parseUncached(String s) {
    if (s.isEmpty()) {
      throw new IllegalArgumentException("Version string empty");
    }
    String[] parts = s.split("\\.", 3);
    if (parts.length != 3) {
      throw new IllegalArgumentException("No Major.Minor.Patch elements found");
    }
    long major = number(parts[0], "major", "Major");
    long minor = number(parts[1], "minor", "Minor");
    String patchStr = parts[2];
    List<String> build = new ArrayList<>();
    List<Object> pre = new ArrayList<>();
    int plus = patchStr.indexOf('+');
    if (plus >= 0) {
      build.addAll(List.of(patchStr.substring(plus + 1).split("\\.", -1)));
      patchStr = patchStr.substring(0, plus);
    }
    int dash = patchStr.indexOf('-');
    List<String> preStrings = new ArrayList<>();
    if (dash >= 0) {
      preStrings.addAll(List.of(patchStr.substring(dash + 1).split("\\.", -1)));
      patchStr = patchStr.substring(0, dash);
    }
    long patch = number(patchStr, "patch", "Patch");
    for (String p : preStrings) {
      pre.add(prerelease(p));
    }
    for (String b : build) {
      if (b.isEmpty()) {
        throw new IllegalArgumentException("Build meta data is empty");
      }
      if (!containsOnly(b, ALPHANUM)) {
        throw new IllegalArgumentException(
            "Invalid character(s) found in build meta data " + GoFormat.quote(b));
      }
    }
    return new Semver(major, minor, patch, pre, build);
  }

  /**
   * Relaxed parsing as the Kubernetes semver library with normalization: an optional "v" prefix,
   * leading zeros dropped, missing minor/patch filled with 0.
   */
  static Semver parseNormalized(String s) {
    if (s.startsWith("v")) {
      s = s.substring(1);
    }
    List<String> parts = new ArrayList<>(List.of(s.split("\\.", 3)));
    for (int i = 0; i < parts.size(); i++) {
      String p = parts.get(i);
      if (p.length() > 1) {
        p = p.replaceFirst("^0+", "");
        if (p.isEmpty() || NUMBERS.indexOf(p.charAt(0)) < 0) {
          p = "0" + p;
        }
        parts.set(i, p);
      }
    }
    if (parts.size() < 3) {
      String last = parts.get(parts.size() - 1);
      if (last.contains("+") || last.contains("-")) {
        throw new IllegalArgumentException(
            "short version cannot contain PreRelease/Build meta data");
      }
      while (parts.size() < 3) {
        parts.add("0");
      }
    }
    return parse(String.join(".", parts));
  }

  private static long number(String s, String lower, String upper) {
    if (!containsOnly(s, NUMBERS)) {
      throw new IllegalArgumentException(
          "Invalid character(s) found in " + lower + " number " + GoFormat.quote(s));
    }
    if (s.length() > 1 && s.charAt(0) == '0') {
      throw new IllegalArgumentException(
          upper + " number must not contain leading zeroes " + GoFormat.quote(s));
    }
    return parseUint(s);
  }

  private static Object prerelease(String s) {
    if (s.isEmpty()) {
      throw new IllegalArgumentException("Prerelease is empty");
    }
    if (containsOnly(s, NUMBERS)) {
      if (s.length() > 1 && s.charAt(0) == '0') {
        throw new IllegalArgumentException(
            "Numeric PreRelease version must not contain leading zeroes " + GoFormat.quote(s));
      }
      return parseUint(s);
    }
    if (!containsOnly(s, ALPHANUM)) {
      throw new IllegalArgumentException(
          "Invalid character(s) found in prerelease " + GoFormat.quote(s));
    }
    return s;
  }

  private static long parseUint(String s) {
    if (s.isEmpty()) {
      throw new IllegalArgumentException("strconv.ParseUint: parsing \"\": invalid syntax");
    }
    try {
      return Long.parseUnsignedLong(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "strconv.ParseUint: parsing " + GoFormat.quote(s) + ": value out of range");
    }
  }

  private static boolean containsOnly(String s, String allowed) {
    for (int i = 0; i < s.length(); i++) {
      if (allowed.indexOf(s.charAt(i)) < 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int compareTo(Semver o) {
    int c = Long.compareUnsigned(major, o.major);
    if (c == 0) {
      c = Long.compareUnsigned(minor, o.minor);
    }
    if (c == 0) {
      c = Long.compareUnsigned(patch, o.patch);
    }
    if (c != 0) {
      return Integer.signum(c);
    }
    return comparePrerelease(o);
  }

  private int comparePrerelease(Semver o) {
    if (pre.isEmpty() && o.pre.isEmpty()) {
      return 0;
    }
    if (pre.isEmpty()) {
      return 1; // a release is greater than any of its pre-releases
    }
    if (o.pre.isEmpty()) {
      return -1;
    }
    int i = 0;
    for (; i < pre.size() && i < o.pre.size(); i++) {
      int c = compareIdentifier(pre.get(i), o.pre.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(pre.size(), o.pre.size()) == 0 ? 0 : (i == pre.size() ? -1 : 1);
  }

  private static int compareIdentifier(Object a, Object b) {
    if (a instanceof Long x && b instanceof Long y) {
      return Integer.signum(Long.compareUnsigned(x, y));
    }
    if (a instanceof Long) {
      return -1;
    }
    if (b instanceof Long) {
      return 1;
    }
    return Integer.signum(((String) a).compareTo((String) b));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Semver s && compareTo(s) == 0;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(major) * 961 + Long.hashCode(minor) * 31 + Long.hashCode(patch);
  }

  @Override
  public String toString() {
    StringBuilder b =
        new StringBuilder()
            .append(Long.toUnsignedString(major))
            .append('.')
            .append(Long.toUnsignedString(minor))
            .append('.')
            .append(Long.toUnsignedString(patch));
    for (int i = 0; i < pre.size(); i++) {
      b.append(i == 0 ? '-' : '.')
          .append(pre.get(i) instanceof Long l ? Long.toUnsignedString(l) : pre.get(i));
    }
    for (int i = 0; i < build.size(); i++) {
      b.append(i == 0 ? '+' : '.').append(build.get(i));
    }
    return b.toString();
  }

  @Override
  public Object value() {
    return this;
  }

  @Override
  public boolean isZeroValue() {
    return false;
  }

  @Override
  public CelType celType() {
    return TYPE;
  }
}
