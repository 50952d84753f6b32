package io.jdra.api.quantity;

import io.jdra.api.quantity.Quantity.Format;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Prints a quantity in upstream's canonical form: no fractional digits, the largest suffix of the
 * quantity's format that keeps the value exact, "0" for zero, a sign only when negative.
 */
final class CanonicalFormatter {
  private static final String[] DECIMAL_SUFFIXES = {
    "n", "u", "m", "", "k", "M", "G", "T", "P", "E"
  };
  private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  private static final BigInteger ONE_KI = BigInteger.valueOf(1024);
  private static final BigDecimal MINUS_1024 = BigDecimal.valueOf(-1024);
  private static final BigDecimal PLUS_1024 = BigDecimal.valueOf(1024);
  private static final int MAX_BINARY_DIGITS = 40;

  private CanonicalFormatter() {}

  static String format(Quantity q) {
    if (q.isZero()) {
      return "0";
    }
    Format format = q.format();
    if (format == Format.BINARY_SI) {
      BigInteger whole = binaryWhole(q);
      if (whole != null) {
        return binary(whole);
      }
      format = Format.DECIMAL_SI; // below 1024 or fractional: decimal avoids rounding
    }
    return decimal(q, format);
  }

  /** The integral value when binary printing applies, else null. */
  private static BigInteger binaryWhole(Quantity q) {
    if (q.isCompact() && q.compactScale() >= 0) {
      long v = q.compactValue();
      if (v > -1024 && v < 1024 && q.compactScale() == 0) {
        return null;
      }
      if (ScaledMath.canScaleUp(v, q.compactScale())) {
        long whole = ScaledMath.scaleUp(v, q.compactScale());
        return whole > -1024 && whole < 1024 ? null : BigInteger.valueOf(whole);
      }
    }
    BigDecimal d = q.toBigDecimal();
    if (d.compareTo(MINUS_1024) > 0 && d.compareTo(PLUS_1024) < 0) {
      return null;
    }
    if (d.precision() - (long) d.scale() > MAX_BINARY_DIGITS) {
      return null; // far beyond Ei; printing it in decimal avoids building a huge integer
    }
    BigDecimal rounded = d.setScale(0, RoundingMode.UP);
    return rounded.compareTo(d) == 0 ? rounded.unscaledValue() : null;
  }

  private static String binary(BigInteger whole) {
    int times = 0;
    if (whole.bitLength() < 64) {
      long v = whole.longValue();
      // Upstream has no suffix past Ei; stop there rather than print a wrong number.
      while (times < BINARY_SUFFIXES.length - 1 && v % 1024 == 0 && Math.abs(v) >= 1024) {
        v /= 1024;
        times++;
      }
      return v + BINARY_SUFFIXES[times];
    }
    BigInteger v = whole;
    while (times < BINARY_SUFFIXES.length - 1
        && v.abs().compareTo(ONE_KI) >= 0
        && v.getLowestSetBit() >= 10) {
      v = v.shiftRight(10);
      times++;
    }
    return v + BINARY_SUFFIXES[times];
  }

  private static String decimal(Quantity q, Format format) {
    long exponent;
    if (q.isCompact()) {
      long v = q.compactValue();
      int zeros = ScaledMath.trailingDecimalZeros(v);
      long m = v / ScaledMath.POW10[zeros];
      exponent = (long) q.compactScale() + zeros;
      int adjust = (int) Math.floorMod(exponent, 3L);
      if (ScaledMath.canScaleUp(m, adjust)) {
        return withSuffix(Long.toString(ScaledMath.scaleUp(m, adjust)), exponent - adjust, format);
      }
    }
    BigDecimal stripped = q.toBigDecimal().stripTrailingZeros();
    exponent = -(long) stripped.scale();
    int adjust = (int) Math.floorMod(exponent, 3L);
    BigInteger m = stripped.unscaledValue().multiply(BigInteger.TEN.pow(adjust));
    return withSuffix(m.toString(), exponent - adjust, format);
  }

  private static String withSuffix(String mantissa, long exponent, Format format) {
    if (format == Format.DECIMAL_SI && exponent >= -9 && exponent <= 18) {
      return mantissa + DECIMAL_SUFFIXES[(int) (exponent / 3) + 3];
    }
    // Decimal SI has no suffix beyond E or below n: fall back to an exponent, as upstream.
    return exponent == 0 ? mantissa : mantissa + "e" + exponent;
  }
}
