package io.jdra.api.quantity;

import io.jdra.api.quantity.Quantity.Format;
import io.jdra.api.quantity.QuantityFormatException.Kind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Reads the Kubernetes quantity grammar exactly as upstream's {@code ParseQuantity}: the same
 * accepted strings, the same errors, the same rounding to nano and the same choice between the
 * compact int64 form and the arbitrary-precision form (which decides what {@link Quantity#asLong}
 * reports, as upstream's {@code AsInt64}).
 */
final class QuantityParser {
  private static final String SUFFIX_CHARS = "eEinumkKMGTP";
  private static final BigDecimal MAX_INT64 = BigDecimal.valueOf(Long.MAX_VALUE);

  /** Upstream keeps at most 18 decimal digits in the int64 form. */
  private static final int MAX_INT64_DIGITS = 18;

  private QuantityParser() {}

  /** The pieces of a scanned quantity, as index ranges into the input. */
  private record Scan(
      boolean positive, int numStart, int numEnd, int denomStart, int denomEnd, int suffixStart) {
    int numLength() {
      return numEnd == numStart ? 1 : numEnd - numStart; // an empty numerator counts as "0"
    }

    int denomLength() {
      return denomEnd - denomStart;
    }
  }

  /** A suffix: base 10 or 2, the exponent in that base, and the format it implies. */
  private record Suffix(int base, int exponent, Format format) {}

  private static final Suffix NO_SUFFIX = new Suffix(10, 0, Format.DECIMAL_SI);

  /** n u m (none) k M G T P E, shared so that parsing does not allocate them. */
  private static final Suffix[] DECIMAL_SUFFIXES = new Suffix[10];

  /** Ki Mi Gi Ti Pi Ei. */
  private static final Suffix[] BINARY_SUFFIXES = new Suffix[6];

  static {
    for (int i = 0; i < DECIMAL_SUFFIXES.length; i++) {
      DECIMAL_SUFFIXES[i] = new Suffix(10, 3 * (i - 3), Format.DECIMAL_SI);
    }
    for (int i = 0; i < BINARY_SUFFIXES.length; i++) {
      BINARY_SUFFIXES[i] = new Suffix(2, 10 * (i + 1), Format.BINARY_SI);
    }
  }

  static Quantity parse(String str) {
    if (str == null || str.isEmpty()) {
      throw new QuantityFormatException(Kind.FORMAT_WRONG, str);
    }
    if (str.equals("0")) {
      return Quantity.ZERO_PARSED;
    }
    Scan scan = scan(str);
    Suffix suffix = interpret(str, scan.suffixStart());
    Quantity fast = tryInt64(str, scan, suffix);
    return fast != null ? fast : parseBig(str, scan, suffix);
  }

  /** Splits sign, numerator, denominator and suffix; errors as upstream's scanner. */
  private static Scan scan(String str) {
    int end = str.length();
    int pos = 0;
    boolean positive = true;
    char first = str.charAt(0);
    if (first == '-' || first == '+') {
      positive = first == '+';
      pos++;
    }
    while (pos < end && str.charAt(pos) == '0') {
      pos++; // leading zeros never matter
    }
    if (pos >= end) {
      return new Scan(positive, pos, pos, pos, pos, end);
    }
    int numStart = pos;
    while (pos < end && isDigit(str.charAt(pos))) {
      pos++;
    }
    int numEnd = pos;
    int denomStart = pos;
    int denomEnd = pos;
    if (pos < end && str.charAt(pos) == '.') {
      pos++;
      denomStart = pos;
      while (pos < end && isDigit(str.charAt(pos))) {
        pos++;
      }
      denomEnd = pos;
    }
    int suffixStart = pos;
    while (pos < end && SUFFIX_CHARS.indexOf(str.charAt(pos)) >= 0) {
      pos++;
    }
    if (pos < end && (str.charAt(pos) == '-' || str.charAt(pos) == '+')) {
      pos++;
    }
    while (pos < end && isDigit(str.charAt(pos))) {
      pos++;
    }
    if (pos < end) {
      throw new QuantityFormatException(Kind.FORMAT_WRONG, str);
    }
    return new Scan(positive, numStart, numEnd, denomStart, denomEnd, suffixStart);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static Suffix interpret(String str, int start) {
    int len = str.length() - start;
    if (len == 0) {
      return NO_SUFFIX;
    }
    if (len == 1) {
      int decimal = "num kMGTPE".indexOf(str.charAt(start));
      if (decimal < 0 || decimal == 3) {
        throw new QuantityFormatException(Kind.SUFFIX, str);
      }
      return DECIMAL_SUFFIXES[decimal];
    }
    if (len == 2 && str.charAt(start + 1) == 'i') {
      int binary = "KMGTPE".indexOf(str.charAt(start));
      if (binary >= 0) {
        return BINARY_SUFFIXES[binary];
      }
    }
    char e = str.charAt(start);
    if (e == 'e' || e == 'E') {
      try {
        // Upstream reads an int64 and then truncates it to int32; the cast does the same.
        long exponent = Long.parseLong(str, start + 1, str.length(), 10);
        return new Suffix(10, (int) exponent, Format.DECIMAL_EXPONENT);
      } catch (NumberFormatException ex) {
        throw new QuantityFormatException(Kind.SUFFIX, str);
      }
    }
    throw new QuantityFormatException(Kind.SUFFIX, str);
  }

  /** The int64 form when the digits fit and nothing is finer than nano; else null. */
  private static Quantity tryInt64(String str, Scan scan, Suffix suffix) {
    int precision;
    int scale;
    int shift = 0; // binary multiplier as a left shift
    if (suffix.format() == Format.BINARY_SI) {
      if (scan.denomLength() != 0) {
        return null;
      }
      scale = 0;
      shift = suffix.exponent();
      precision = 15 - scan.numLength() - (int) (suffix.exponent() * 3f / 10) - 1;
    } else {
      scale = suffix.exponent();
      precision = MAX_INT64_DIGITS - (scan.numLength() + scan.denomLength());
    }
    if (precision < 0) {
      return null;
    }
    scale -= scan.denomLength();
    if (scale < -9) {
      return null;
    }
    long digits = readDigits(str, scan);
    long result = digits << shift;
    if (shift != 0 && (result >> shift) != digits) {
      return null; // the binary multiple does not fit
    }
    if (!scan.positive()) {
      result = -result;
    }
    String verbatim = keepsInputString(str, scan, suffix, digits, scale) ? str : null;
    return Quantity.ofInt64(result, scale, suffix.format(), verbatim);
  }

  /**
   * Upstream remembers the input string (and prints it back unchanged) when it already looks
   * canonical; the check is intentionally upstream's cheap one, so "+1" or "1.500k" print as
   * written.
   */
  private static boolean keepsInputString(
      String str, Scan scan, Suffix suffix, long digits, int scale) {
    if (suffix.format() == Format.BINARY_SI) {
      return (digits & 0x07) != 0;
    }
    if (scale % 3 != 0) {
      return false;
    }
    boolean emptyNum = scan.numEnd() == scan.numStart();
    char firstDigit = emptyNum ? '0' : str.charAt(scan.numStart());
    return firstDigit != '0' && !endsWithThreeZeros(str, scan);
  }

  /** Whether numerator followed by denominator ends in "000". */
  private static boolean endsWithThreeZeros(String str, Scan scan) {
    int zeros = 0;
    for (int i = scan.denomEnd() - 1; i >= scan.denomStart() && zeros < 3; i--, zeros++) {
      if (str.charAt(i) != '0') {
        return false;
      }
    }
    for (int i = scan.numEnd() - 1; i >= scan.numStart() && zeros < 3; i--, zeros++) {
      if (str.charAt(i) != '0') {
        return false;
      }
    }
    return zeros == 3;
  }

  /** Numerator and denominator digits as one long (at most 18 digits here). */
  private static long readDigits(String str, Scan scan) {
    long v = 0;
    for (int i = scan.numStart(); i < scan.numEnd(); i++) {
      v = v * 10 + (str.charAt(i) - '0');
    }
    for (int i = scan.denomStart(); i < scan.denomEnd(); i++) {
      v = v * 10 + (str.charAt(i) - '0');
    }
    return v;
  }

  /** The arbitrary-precision path: exact, then rounded away from zero to nano. */
  private static Quantity parseBig(String str, Scan scan, Suffix suffix) {
    boolean noDigits = scan.numEnd() == scan.numStart() && scan.denomLength() == 0;
    if (noDigits && !hasZeroBeforeNumerator(str, scan)) {
      throw new QuantityFormatException(Kind.NUMERIC, str);
    }
    String digits =
        str.substring(scan.numStart(), scan.numEnd())
            + str.substring(scan.denomStart(), scan.denomEnd());
    BigInteger unscaled = digits.isEmpty() ? BigInteger.ZERO : new BigInteger(digits);
    BigDecimal amount;
    if (suffix.base() == 10) {
      amount = new BigDecimal(unscaled, scan.denomLength() - suffix.exponent());
    } else {
      amount = new BigDecimal(unscaled.shiftLeft(suffix.exponent()), scan.denomLength());
    }
    if (amount.signum() != 0 && amount.scale() > 9) {
      // Asking for any amount should give some amount: round up, never down to zero.
      amount = amount.setScale(9, RoundingMode.UP);
    }
    Format format = suffix.format();
    if (format == Format.BINARY_SI && amount.compareTo(MAX_INT64) > 0) {
      amount = MAX_INT64; // upstream caps binary quantities silently
    }
    if (format == Format.BINARY_SI && amount.signum() > 0 && amount.compareTo(BigDecimal.ONE) < 0) {
      format = Format.DECIMAL_SI;
    }
    return Quantity.ofBig(scan.positive() ? amount : amount.negate(), format);
  }

  /** "0.e-20" has its zero stripped by the scanner but still has a digit. */
  private static boolean hasZeroBeforeNumerator(String str, Scan scan) {
    int signLen = str.charAt(0) == '-' || str.charAt(0) == '+' ? 1 : 0;
    return scan.numStart() > signLen;
  }

  /** Removes leading and trailing white space as Go's strings.TrimSpace does. */
  static String trimSpace(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && isGoSpace(s.charAt(start))) {
      start++;
    }
    while (end > start && isGoSpace(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(start, end);
  }

  /** Go's unicode.IsSpace: ASCII/Latin-1 spacing plus the Unicode White_Space categories. */
  private static boolean isGoSpace(char c) {
    return "\t\n\u000B\f\r \u0085".indexOf(c) >= 0 || Character.isSpaceChar(c);
  }
}
