package io.jdra.api.quantity;

/**
 * Powers of ten as doubles computed the way Go's {@code math.Pow10} does (a product or quotient of
 * two correctly rounded table entries), so approximate conversions give the same bits as upstream.
 */
final class Pow10 {
  private static final double[] TAB = new double[32];
  private static final double[] POS32 = new double[10];
  private static final double[] NEG32 = new double[11];

  static {
    for (int i = 0; i < TAB.length; i++) {
      TAB[i] = Double.parseDouble("1e" + i);
    }
    for (int i = 0; i < POS32.length; i++) {
      POS32[i] = Double.parseDouble("1e" + (32 * i));
    }
    for (int i = 0; i < NEG32.length; i++) {
      NEG32[i] = Double.parseDouble("1e-" + (32 * i));
    }
  }

  private Pow10() {}

  static double of(long n) {
    if (n >= 0 && n <= 308) {
      return POS32[(int) n / 32] * TAB[(int) n % 32];
    }
    if (n >= -323 && n <= 0) {
      return NEG32[(int) -n / 32] / TAB[(int) -n % 32];
    }
    return n > 0 ? Double.POSITIVE_INFINITY : 0;
  }
}
