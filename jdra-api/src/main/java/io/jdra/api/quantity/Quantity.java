package io.jdra.api.quantity;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A Kubernetes {@code resource.Quantity}: an exact fixed-point number with a remembered format,
 * parsed and printed exactly as upstream {@code k8s.io/apimachinery/pkg/api/resource} does.
 *
 * <p>Grammar: an optionally signed decimal number ({@code 1}, {@code 1.5}, {@code .5}, {@code 1.})
 * followed by a decimal SI suffix ({@code n u m "" k M G T P E}), a binary suffix ({@code Ki Mi Gi
 * Ti Pi Ei}) or an exponent ({@code e3}, {@code E-6}). Values finer than nano are rounded away from
 * zero to nano; binary quantities larger than 2^63-1 are capped there, as upstream does.
 *
 * <p>Printing ({@link #toString()}) gives upstream's canonical form: the largest suffix of the
 * remembered format that needs no fractional digits ({@code 1.5Gi} prints as {@code 1536Mi}, {@code
 * 0.5} as {@code 500m}); binary values that are fractional or below 1024 in magnitude print in
 * decimal SI. Like upstream, a parsed string that already looks canonical is printed back verbatim
 * (upstream's check is cheap and also keeps e.g. {@code +1} or {@code 1.500k}).
 *
 * <p>Like upstream, a quantity is held either as a {@code long} with a decimal scale (the fast,
 * allocation-free form) or as an arbitrary-precision decimal; which one is observable only through
 * {@link #asLong()}, which mirrors upstream's {@code AsInt64}.
 *
 * <p>Instances are immutable and thread-safe. {@link #equals} and {@link #hashCode} compare the
 * numeric value only (not format or spelling), consistent with {@link #compareTo}.
 */
public final class Quantity implements Comparable<Quantity> {

  /** How a quantity prints; remembered from the parsed suffix. */
  public enum Format {
    /** Powers of ten with SI suffixes, e.g. {@code 12M}. Upstream {@code DecimalSI}. */
    DECIMAL_SI("DecimalSI"),
    /** Powers of 1024 with binary suffixes, e.g. {@code 12Mi}. Upstream {@code BinarySI}. */
    BINARY_SI("BinarySI"),
    /** Powers of ten with an exponent, e.g. {@code 12e6}. Upstream {@code DecimalExponent}. */
    DECIMAL_EXPONENT("DecimalExponent");

    private final String upstreamName;

    Format(String upstreamName) {
      this.upstreamName = upstreamName;
    }

    /** The name upstream uses for this format, e.g. {@code BinarySI}. */
    public String upstreamName() {
      return upstreamName;
    }
  }

  /** {@code parse("0")}, which upstream special-cases. */
  static final Quantity ZERO_PARSED = new Quantity(0, 0, null, Format.DECIMAL_SI, "0");

  /** Fast form: value * 10^scale, used when {@link #dec} is null. */
  private final long value;

  private final int scale;

  /** Arbitrary-precision form, or null for the fast form. */
  private final BigDecimal dec;

  private final Format format;

  /** The printed form; computed lazily (a benign race: Strings are safely published). */
  private String string;

  private Quantity(long value, int scale, BigDecimal dec, Format format, String string) {
    this.value = value;
    this.scale = scale;
    this.dec = dec;
    this.format = format;
    this.string = string;
  }

  static Quantity ofInt64(long value, int scale, Format format, String verbatim) {
    return new Quantity(value, scale, null, format, verbatim);
  }

  static Quantity ofBig(BigDecimal dec, Format format) {
    return new Quantity(0, 0, dec, format, null);
  }

  /**
   * Parses a quantity as upstream's {@code ParseQuantity}.
   *
   * @throws QuantityFormatException with upstream's message when {@code s} is null, empty or not a
   *     quantity (leading or trailing whitespace is not allowed either)
   */
  public static Quantity parse(String s) {
    return QuantityParser.parse(s);
  }

  /**
   * Converts fabric8's quantity (its amount and format strings, concatenated) into a quantity.
   * Surrounding whitespace is ignored, as upstream's JSON decoding of a quantity ignores it
   * (fabric8 keeps it in the amount).
   *
   * @throws QuantityFormatException when the fabric8 value is not a valid Kubernetes quantity
   * @throws NullPointerException when {@code q} is null
   */
  public static Quantity of(io.fabric8.kubernetes.api.model.Quantity q) {
    Objects.requireNonNull(q, "quantity");
    String amount = q.getAmount() == null ? "" : q.getAmount();
    String suffix = q.getFormat() == null ? "" : q.getFormat();
    return parse(QuantityParser.trimSpace(amount + suffix));
  }

  /** {@code value} in the given format, as upstream's {@code NewQuantity}. */
  public static Quantity ofLong(long value, Format format) {
    return new Quantity(value, 0, null, Objects.requireNonNull(format, "format"), null);
  }

  /**
   * {@code value * 10^scale} in the given format, as upstream's {@code NewScaledQuantity} (and
   * {@code NewMilliQuantity} for scale -3).
   */
  public static Quantity ofScaled(long value, int scale, Format format) {
    if (scale == Integer.MIN_VALUE) {
      throw new IllegalArgumentException("quantity scale out of range: " + scale);
    }
    return new Quantity(value, scale, null, Objects.requireNonNull(format, "format"), null);
  }

  /** An exact decimal in the given format, as upstream's {@code NewDecimalQuantity}. */
  public static Quantity of(BigDecimal value, Format format) {
    return ofBig(Objects.requireNonNull(value, "value"), Objects.requireNonNull(format, "format"));
  }

  /** The remembered format. */
  public Format format() {
    return format;
  }

  /** Whether the value is zero. */
  public boolean isZero() {
    return dec == null ? value == 0 : dec.signum() == 0;
  }

  /** -1, 0 or 1 as the value is negative, zero or positive. */
  public int signum() {
    return dec == null ? Long.signum(value) : dec.signum();
  }

  /**
   * The sum; when this is zero the result takes {@code o}'s format, otherwise this one's (as
   * upstream {@code Add}).
   *
   * @throws ArithmeticException when the exact sum would need more than a million digits (e.g.
   *     {@code 1e2000000000 + 1n}), where upstream would exhaust memory
   */
  public Quantity add(Quantity o) {
    Format f = isZero() ? o.format : format;
    if (dec == null && o.dec == null) {
      Quantity fast = addFast(value, scale, o.value, o.scale, f);
      if (fast != null) {
        return fast;
      }
    }
    return ofBig(BigMath.add(toBigDecimal(), o.toBigDecimal()), f);
  }

  /**
   * The difference; format rule as {@link #add}.
   *
   * @throws ArithmeticException as {@link #add}
   */
  public Quantity subtract(Quantity o) {
    Format f = isZero() ? o.format : format;
    if (dec == null && o.dec == null && o.value != Long.MIN_VALUE) {
      Quantity fast = addFast(value, scale, -o.value, o.scale, f);
      if (fast != null) {
        return fast;
      }
    }
    if (isZero()) {
      return o.negate().withFormat(f);
    }
    return ofBig(BigMath.add(toBigDecimal(), o.toBigDecimal().negate()), f);
  }

  /** The negated value in the same format. */
  public Quantity negate() {
    if (dec == null && value != Long.MIN_VALUE) {
      return new Quantity(-value, scale, null, format, null);
    }
    return ofBig(toBigDecimal().negate(), format);
  }

  /**
   * This quantity times {@code factor}, same format, as upstream {@code Mul}: the result stays in
   * the compact int64 form only where upstream's does (so {@link #asLong} agrees).
   */
  public Quantity multiply(long factor) {
    if (dec == null) {
      if (value == 0) {
        return new Quantity(0, scale, null, format, null);
      }
      if (factor == 0) {
        return new Quantity(0, 0, null, format, null);
      }
      Quantity fast = multiplyFast(factor);
      if (fast != null) {
        return fast;
      }
    }
    return ofBig(toBigDecimal().multiply(BigDecimal.valueOf(factor)), format);
  }

  private Quantity multiplyFast(long factor) {
    long hi = Math.multiplyHigh(value, factor);
    long product = value * factor;
    if ((hi != 0 || product < 0) && (hi != -1 || product >= 0)) {
      return null;
    }
    boolean keep =
        scale >= 0
            ? ScaledMath.canScaleUp(product, scale)
            : ScaledMath.divisibleByPow10(product, -(long) scale);
    return keep ? new Quantity(product, scale, null, format, null) : null;
  }

  private Quantity withFormat(Format f) {
    return f == format ? this : new Quantity(value, scale, dec, f, null);
  }

  /** The int64 sum as upstream's int64Amount.Add, or null when it would overflow. */
  private static Quantity addFast(long a, int as, long b, int bs, Format f) {
    if (b == 0) {
      return new Quantity(a, as, null, f, null);
    }
    if (a == 0) {
      return new Quantity(b, bs, null, f, null);
    }
    if (as < bs) {
      return addFast(b, bs, a, as, f);
    }
    long up = (long) as - bs;
    if (!ScaledMath.canScaleUp(a, up)) {
      return null;
    }
    long aligned = ScaledMath.scaleUp(a, up);
    if (ScaledMath.addOverflows(aligned, b)) {
      return null;
    }
    return new Quantity(aligned + b, bs, null, f, null);
  }

  /** The exact value. */
  public BigDecimal toBigDecimal() {
    if (dec != null) {
      return dec;
    }
    return BigDecimal.valueOf(value, -scale);
  }

  /**
   * The value as an int64 exactly as upstream's {@code AsInt64}: present only for the compact form
   * with a non-negative scale whose value fits. So {@code 1Ki} and {@code 5} give a value, while
   * {@code 1000m} (scale -3) and values that upstream keeps in arbitrary precision (such as {@code
   * 1Pi}, {@code 0.5Mi} or results of overflowing arithmetic) give empty, even when integral.
   * Kubernetes CEL's {@code isInteger()}/{@code asInteger()} rely on exactly this.
   */
  public OptionalLong asLong() {
    if (dec != null || scale < 0) {
      return OptionalLong.empty();
    }
    if (!ScaledMath.canScaleUp(value, scale)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(ScaledMath.scaleUp(value, scale));
  }

  /**
   * A double close to the value (infinite when out of range), as upstream's AsApproximateFloat64.
   */
  public double asApproximateDouble() {
    if (dec == null) {
      return scale == 0 ? (double) value : value * Pow10.of(scale);
    }
    double base = dec.unscaledValue().doubleValue();
    int exponent = -dec.scale();
    return exponent == 0 ? base : base * Pow10.of(exponent);
  }

  /**
   * The value rounded to an integer away from zero, as upstream's {@code Value()}. A value beyond
   * the int64 range saturates at {@link Long#MAX_VALUE}/{@link Long#MIN_VALUE}, as current upstream
   * does (older releases wrapped).
   */
  public long value() {
    return scaledValue(0);
  }

  /** {@code value * 1000} rounded away from zero, as upstream's {@code MilliValue()}. */
  public long milliValue() {
    return scaledValue(-3);
  }

  /** {@code value / 10^toScale} rounded away from zero (saturating), as upstream ScaledValue. */
  public long scaledValue(int toScale) {
    if (dec == null) {
      if (value == 0) {
        return 0;
      }
      long delta = (long) scale - toScale;
      if (delta < 0) {
        return ScaledMath.scaleDownAwayFromZero(value, -delta);
      }
      if (!ScaledMath.canScaleUp(value, delta)) {
        return value < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
      }
      return ScaledMath.scaleUp(value, delta);
    }
    BigDecimal moved = dec.movePointLeft(toScale);
    if (moved.precision() - (long) moved.scale() > 19) {
      return moved.signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE; // far beyond int64
    }
    BigInteger i = moved.setScale(0, RoundingMode.UP).unscaledValue();
    if (i.bitLength() < 64) {
      return i.longValue();
    }
    return i.signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
  }

  /** Compares numerically; the int64 form compares without allocating. */
  @Override
  public int compareTo(Quantity o) {
    if (dec == null && o.dec == null) {
      return ScaledMath.compare(value, scale, o.value, o.scale);
    }
    return toBigDecimal().compareTo(o.toBigDecimal());
  }

  /** Equal when numerically equal, whatever the format or spelling. */
  @Override
  public boolean equals(Object obj) {
    return obj instanceof Quantity q && compareTo(q) == 0;
  }

  @Override
  public int hashCode() {
    if (isZero()) {
      return 0;
    }
    long unscaled;
    long exponent;
    if (dec == null) {
      int zeros = ScaledMath.trailingDecimalZeros(value);
      unscaled = value / ScaledMath.POW10[zeros];
      exponent = (long) scale + zeros;
    } else {
      BigDecimal stripped = dec.stripTrailingZeros();
      if (stripped.unscaledValue().bitLength() >= 64) {
        return stripped.hashCode();
      }
      unscaled = stripped.unscaledValue().longValue();
      exponent = -(long) stripped.scale();
    }
    return 31 * Long.hashCode(unscaled) + Long.hashCode(exponent);
  }

  /** The canonical form as upstream's {@code String()} prints it. */
  @Override
  public String toString() {
    String s = string;
    if (s == null) {
      s = CanonicalFormatter.format(this);
      string = s;
    }
    return s;
  }

  /** fabric8's quantity with this quantity's printed form. */
  public io.fabric8.kubernetes.api.model.Quantity toFabric8() {
    return new io.fabric8.kubernetes.api.model.Quantity(toString());
  }

  // Accessors for the formatter.
  boolean isCompact() {
    return dec == null;
  }

  long compactValue() {
    return value;
  }

  int compactScale() {
    return scale;
  }
}
