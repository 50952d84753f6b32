package io.jdra.api.quantity;

import java.math.BigDecimal;

/**
 * Exact decimal arithmetic with a bound on the work it may do. Aligning {@code 1e2000000000} with
 * {@code 1n} would need two billion digits; upstream would try (and exhaust memory), jdra refuses
 * with an {@link ArithmeticException} instead, which no realistic quantity ever reaches.
 */
final class BigMath {
  /** The largest scale difference that addition will align. */
  static final long MAX_ALIGN_DIGITS = 1_000_000;

  private BigMath() {}

  static BigDecimal add(BigDecimal a, BigDecimal b) {
    if (a.signum() == 0) {
      return b;
    }
    if (b.signum() == 0) {
      return a;
    }
    if (Math.abs((long) a.scale() - b.scale()) > MAX_ALIGN_DIGITS) {
      throw new ArithmeticException(
          "quantity arithmetic would need more than " + MAX_ALIGN_DIGITS + " digits");
    }
    return a.add(b);
  }
}
