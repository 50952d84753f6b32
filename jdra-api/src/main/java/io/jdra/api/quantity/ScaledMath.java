package io.jdra.api.quantity;

/**
 * Overflow-aware helpers for values of the form {@code value * 10^scale} held in a {@code long} and
 * an {@code int}. They never allocate: the common quantity operations (compare, add) stay on
 * primitives and only fall back to {@link java.math.BigDecimal} when a result would not fit.
 */
final class ScaledMath {
  /** Powers of ten that fit a long: 10^0 .. 10^18. */
  static final long[] POW10 = new long[19];

  static {
    long p = 1;
    for (int i = 0; i < POW10.length; i++) {
      POW10[i] = p;
      p *= 10;
    }
  }

  private ScaledMath() {}

  /** Whether {@code value * 10^up} (up >= 0) fits a long. */
  static boolean canScaleUp(long value, long up) {
    if (value == 0 || up == 0) {
      return true;
    }
    if (up >= POW10.length) {
      return false;
    }
    long p = POW10[(int) up];
    long hi = Math.multiplyHigh(value, p);
    long lo = value * p;
    return (hi == 0 && lo >= 0) || (hi == -1 && lo < 0);
  }

  /** {@code value * 10^up}; only valid when {@link #canScaleUp} said so. */
  static long scaleUp(long value, long up) {
    return up == 0 ? value : value * POW10[(int) up];
  }

  /** Whether {@code a + b} overflows a long. */
  static boolean addOverflows(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0;
  }

  /** Compares {@code a * 10^as} with {@code b * 10^bs} without allocating. */
  static int compare(long a, int as, long b, int bs) {
    if (as == bs) {
      return Long.compare(a, b);
    }
    if (as > bs) {
      return compareShifted(a, (long) as - bs, b);
    }
    return -compareShifted(b, (long) bs - as, a);
  }

  /** Compares {@code a * 10^up} (up > 0) with {@code b}. */
  private static int compareShifted(long a, long up, long b) {
    if (a == 0) {
      return -Long.signum(b);
    }
    if (!canScaleUp(a, up)) {
      // |a * 10^up| exceeds the long range, so it is beyond any long b.
      return Long.signum(a);
    }
    return Long.compare(a * POW10[(int) up], b);
  }

  /**
   * {@code value / 10^down} rounded away from zero (down > 0), as upstream's negativeScaleInt64;
   * beyond 18 digits only the rounding unit remains.
   */
  static long scaleDownAwayFromZero(long value, long down) {
    if (value == 0) {
      return 0;
    }
    if (down >= POW10.length) {
      return value < 0 ? -1 : 1;
    }
    long p = POW10[(int) down];
    long q = value / p;
    if (value % p == 0) {
      return q;
    }
    return value < 0 ? q - 1 : q + 1;
  }

  /** Whether {@code value / 10^down} is exact. */
  static boolean divisibleByPow10(long value, long down) {
    if (value == 0 || down == 0) {
      return true;
    }
    return down < POW10.length && value % POW10[(int) down] == 0;
  }

  /** The number of trailing decimal zeros of a non-zero value. */
  static int trailingDecimalZeros(long value) {
    int times = 0;
    while (value % 10 == 0 && value != 0) {
      value /= 10;
      times++;
    }
    return times;
  }
}
