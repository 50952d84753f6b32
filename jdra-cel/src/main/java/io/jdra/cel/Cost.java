package io.jdra.cel;

/**
 * A [min, max] range of CEL cost units or sizes with saturating arithmetic, as cel-go's
 * checker.CostEstimate and checker.SizeEstimate (unsigned 64-bit; {@link #UNKNOWN_MAX} is 2^64-1).
 */
record Cost(long min, long max) {
  /** math.MaxUint64 as an unsigned long. */
  static final long UNKNOWN_MAX = -1L;

  static final Cost ZERO = new Cost(0, 0);
  static final Cost ONE = new Cost(1, 1);
  static final Cost UNKNOWN = new Cost(0, UNKNOWN_MAX);

  static Cost fixed(long v) {
    return new Cost(v, v);
  }

  Cost add(Cost o) {
    return new Cost(addSat(min, o.min), addSat(max, o.max));
  }

  Cost multiply(Cost o) {
    return new Cost(mulSat(min, o.min), mulSat(max, o.max));
  }

  Cost multiplyByFactor(double factor) {
    return new Cost(mulFactor(min, factor), mulFactor(max, factor));
  }

  Cost union(Cost o) {
    return new Cost(
        Long.compareUnsigned(o.min, min) < 0 ? o.min : min,
        Long.compareUnsigned(o.max, max) > 0 ? o.max : max);
  }

  static long addSat(long x, long y) {
    long r = x + y;
    return Long.compareUnsigned(r, x) < 0 ? UNKNOWN_MAX : r;
  }

  static long mulSat(long x, long y) {
    if (x == 0 || y == 0) {
      return 0;
    }
    return Long.compareUnsigned(x, Long.divideUnsigned(UNKNOWN_MAX, y)) > 0 ? UNKNOWN_MAX : x * y;
  }

  static long mulFactor(long x, double factor) {
    double xf = unsignedToDouble(x);
    double r = Math.ceil(xf * factor);
    if (r >= 0x1p64) {
      return UNKNOWN_MAX;
    }
    return r >= 0x1p63 ? (long) (r - 0x1p63) ^ Long.MIN_VALUE : (long) r;
  }

  static double unsignedToDouble(long x) {
    return x >= 0 ? x : (double) (x >>> 1) * 2.0;
  }

  /** The maximum as a signed long, saturated at Long.MAX_VALUE. */
  long maxSaturated() {
    return max < 0 ? Long.MAX_VALUE : max;
  }
}
