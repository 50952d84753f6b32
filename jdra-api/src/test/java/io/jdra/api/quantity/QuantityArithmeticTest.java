package io.jdra.api.quantity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdra.api.quantity.Quantity.Format;
import java.math.BigDecimal;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Compare, add, subtract, negate and the int64 accessors, after upstream's tables. */
class QuantityArithmeticTest {
  private static final Format DSI = Format.DECIMAL_SI;
  private static final Format BSI = Format.BINARY_SI;

  static Stream<Arguments> comparisons() {
    return Stream.of(
        Arguments.of("0", "0", 0),
        Arguments.of("100m", "50m", 1),
        Arguments.of("50m", "100m", -1),
        Arguments.of("10000T", "100Gi", 1),
        Arguments.of("1Ki", "1024", 0),
        Arguments.of("1k", "1000000m", 0),
        Arguments.of("1Pi", "1125899906842624", 0),
        Arguments.of("1Pi", "1125899906842625", -1),
        Arguments.of("18446744073709551616", "9223372036854775807", 1),
        Arguments.of("-18446744073709551616", "-9223372036854775807", -1),
        Arguments.of("1e30", "9223372036854775807", 1),
        Arguments.of("-1e30", "1n", -1),
        Arguments.of("0e30", "0n", 0),
        Arguments.of("9.01", "9.1", -1),
        Arguments.of("800m", "0.79", 1),
        Arguments.of("1.5Gi", "1536Mi", 0),
        Arguments.of("1n", "0", 1),
        Arguments.of("1e2000000000", "1e1999999999", 1));
  }

  @ParameterizedTest(name = "{0} vs {1}")
  @MethodSource("comparisons")
  void compares(String a, String b, int expected) {
    Quantity x = Quantity.parse(a);
    Quantity y = Quantity.parse(b);
    assertThat(Integer.signum(x.compareTo(y))).isEqualTo(expected);
    assertThat(Integer.signum(y.compareTo(x))).isEqualTo(-expected);
    assertThat(x.equals(y)).isEqualTo(expected == 0);
    if (expected == 0) {
      assertThat(x.hashCode()).isEqualTo(y.hashCode());
    }
  }

  /** Values at the edges of the int64 form, as upstream's CmpInt64AndDec table. */
  static Stream<Arguments> scaledComparisons() {
    long max = Long.MAX_VALUE;
    long min = Long.MIN_VALUE;
    long e18 = 1_000_000_000_000_000_000L;
    return Stream.of(
        Arguments.of(901, -2, 901, -2, 0),
        Arguments.of(90, -1, 901, -2, -1),
        Arguments.of(901, -2, 900, -2, 1),
        Arguments.of(0, 1, 0, -1, 0),
        Arguments.of(800, -3, 1, 0, -1),
        Arguments.of(800, -3, 79, -2, 1),
        Arguments.of(max, 0, 1, -1, 1),
        Arguments.of(max, 1, 1, 0, 1),
        Arguments.of(max, 1, 1, 1, 1),
        Arguments.of(max, 1, 0, 1, 1),
        Arguments.of(max, -16, 1, 3, -1),
        Arguments.of(min, 0, 0, 0, -1),
        Arguments.of(min, -18, -1, 0, -1),
        Arguments.of(min, -19, -1, 0, 1),
        Arguments.of(e18, -17, 1, 1, 0),
        Arguments.of(e18, -17, -10, 0, 1),
        Arguments.of(-e18, -17, -10, 0, 0),
        Arguments.of(e18, -17, 1, 0, 1),
        Arguments.of(e18 + 1, -17, 1, 1, 1),
        Arguments.of(e18 - 1, -17, 1, 1, -1),
        Arguments.of(1, 40, max, 0, 1),
        Arguments.of(-1, 40, min, 0, -1));
  }

  @ParameterizedTest(name = "{0}e{1} vs {2}e{3}")
  @MethodSource("scaledComparisons")
  void comparesScaledInt64(long a, int as, long b, int bs, int expected) {
    Quantity x = Quantity.ofScaled(a, as, DSI);
    Quantity y = Quantity.ofScaled(b, bs, DSI);
    assertThat(Integer.signum(x.compareTo(y))).isEqualTo(expected);
    assertThat(Integer.signum(y.compareTo(x))).isEqualTo(-expected);
    Quantity bigX = Quantity.of(x.toBigDecimal(), DSI);
    assertThat(Integer.signum(bigX.compareTo(y))).isEqualTo(expected);
    assertThat(Integer.signum(y.compareTo(bigX))).isEqualTo(-expected);
  }

  static Stream<Arguments> sums() {
    return Stream.of(
        // a, b, a+b, printed, a-b, printed
        Arguments.of("10", "1e1", "20", "20", "0", "0"),
        Arguments.of("10", "1Ki", "1034", "1034", "-1014", "-1014"),
        Arguments.of("1Ki", "10", "1034", "1034", "1014", "1014"),
        Arguments.of("0", "50", "50", "50", "-50", "-50"),
        Arguments.of("0", "1Gi", "1073741824", "1Gi", "-1073741824", "-1Gi"),
        Arguments.of("1Gi", "0", "1073741824", "1Gi", "1073741824", "1Gi"),
        Arguments.of("0", "100m", "0.1", "100m", "-0.1", "-100m"),
        Arguments.of("100m", "0", "0.1", "100m", "0.1", "100m"),
        Arguments.of("1Gi", "512Mi", "1610612736", "1536Mi", "536870912", "512Mi"),
        Arguments.of("1", "500m", "1.5", "1500m", "0.5", "500m"),
        Arguments.of(
            "9223372036854775807",
            "1",
            "9223372036854775808",
            "9223372036854775808",
            "9223372036854775806",
            "9223372036854775806"),
        Arguments.of(
            "1E",
            "1n",
            "1000000000000000000.000000001",
            "1000000000000000000000000001n",
            "999999999999999999.999999999",
            "999999999999999999999999999n"),
        Arguments.of("1e3", "1", "1001", "1001", "999", "999"));
  }

  @ParameterizedTest(name = "{0} +/- {1}")
  @MethodSource("sums")
  void addsAndSubtracts(String a, String b, String sum, String sumOut, String diff, String out) {
    Quantity x = Quantity.parse(a);
    Quantity y = Quantity.parse(b);
    assertThat(x.add(y).toBigDecimal()).isEqualByComparingTo(sum);
    assertThat(x.add(y)).hasToString(sumOut);
    assertThat(x.subtract(y).toBigDecimal()).isEqualByComparingTo(diff);
    assertThat(x.subtract(y)).hasToString(out);
    assertThat(x.add(y).subtract(y)).isEqualTo(x);
  }

  @Test
  void subtractingMostNegativeLeavesTheInt64Form() {
    Quantity min = Quantity.ofLong(Long.MIN_VALUE, DSI);
    Quantity zero = Quantity.ofLong(0, DSI);
    assertThat(min.negate()).hasToString("9223372036854775808");
    assertThat(min.negate().asLong()).isEmpty();
    assertThat(zero.subtract(min)).hasToString("9223372036854775808");
    assertThat(Quantity.ofLong(1, DSI).subtract(min)).hasToString("9223372036854775809");
    assertThat(Quantity.ofLong(10, DSI).subtract(min)).hasToString("9223372036854775818");
    assertThat(Quantity.ofScaled(Long.MIN_VALUE, -3, DSI).negate())
        .hasToString("9223372036854775808m");
    assertThat(Quantity.ofScaled(1, -3, DSI).subtract(Quantity.ofScaled(Long.MIN_VALUE, -3, DSI)))
        .hasToString("9223372036854775809m");
    assertThat(Quantity.ofLong(Long.MIN_VALUE + 1, DSI).negate().asLong()).hasValue(Long.MAX_VALUE);
    assertThat(zero.subtract(Quantity.ofLong(Long.MIN_VALUE, BSI))).hasToString("8Ei");
    assertThat(zero.subtract(Quantity.ofLong(Long.MIN_VALUE, BSI)).format()).isEqualTo(BSI);
  }

  @Test
  void negateKeepsFormatAndPrintsSign() {
    assertThat(Quantity.ofScaled(901, -2, DSI).negate()).hasToString("-9010m");
    assertThat(Quantity.of(new BigDecimal("9.01"), DSI).negate()).hasToString("-9010m");
    assertThat(Quantity.ofLong(10, BSI).negate().format()).isEqualTo(BSI);
    assertThat(Quantity.parse("0").negate()).hasToString("0");
    assertThat(Quantity.parse("1Gi").negate().negate()).hasToString("1Gi");
  }

  @Test
  void signumAndIsZero() {
    assertThat(Quantity.parse("-1n").signum()).isEqualTo(-1);
    assertThat(Quantity.parse("0Gi").signum()).isZero();
    assertThat(Quantity.parse("0Gi").isZero()).isTrue();
    assertThat(Quantity.parse("0e-20").isZero()).isTrue();
    assertThat(Quantity.parse("1e-20").signum()).isEqualTo(1);
    assertThat(Quantity.parse("18446744073709551616").signum()).isEqualTo(1);
  }

  /** Upstream AsInt64 depends on the internal form; CEL's isInteger()/asInteger() rely on it. */
  static Stream<Arguments> asLong() {
    return Stream.of(
        Arguments.of("5", OptionalLong.of(5)),
        Arguments.of("-5", OptionalLong.of(-5)),
        Arguments.of("1Ki", OptionalLong.of(1024)),
        Arguments.of("1Ti", OptionalLong.of(1099511627776L)),
        Arguments.of("1k", OptionalLong.of(1000)),
        Arguments.of("1E", OptionalLong.of(1_000_000_000_000_000_000L)),
        Arguments.of("10E", OptionalLong.empty()),
        Arguments.of("1000m", OptionalLong.empty()),
        Arguments.of("1.5", OptionalLong.empty()),
        Arguments.of("1Pi", OptionalLong.empty()),
        Arguments.of("100Ti", OptionalLong.empty()),
        Arguments.of("0.5Mi", OptionalLong.empty()),
        Arguments.of("1e-20", OptionalLong.empty()),
        Arguments.of("9223372036854775807", OptionalLong.empty()),
        Arguments.of("922337203685477580", OptionalLong.of(922337203685477580L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("asLong")
  void asLongMirrorsUpstreamAsInt64(String in, OptionalLong expected) {
    assertThat(Quantity.parse(in).asLong()).isEqualTo(expected);
  }

  static Stream<Arguments> roundedValues() {
    return Stream.of(
        // input, value(), milliValue()
        Arguments.of("1", 1L, 1000L),
        Arguments.of("1Mi", 1048576L, 1048576000L),
        Arguments.of("1.5", 2L, 1500L),
        Arguments.of("-1.5", -2L, -1500L),
        Arguments.of("1n", 1L, 1L),
        Arguments.of("-1n", -1L, -1L),
        Arguments.of("1500u", 1L, 2L),
        Arguments.of("0.9n", 1L, 1L),
        Arguments.of("100.035Ki", 102436L, 102435840L),
        Arguments.of("1e-20", 1L, 1L),
        Arguments.of("1Pi", 1125899906842624L, 1125899906842624000L),
        Arguments.of("10Pi", 11258999068426240L, Long.MAX_VALUE),
        Arguments.of("9Ei", Long.MAX_VALUE, Long.MAX_VALUE),
        Arguments.of("1e30", Long.MAX_VALUE, Long.MAX_VALUE),
        Arguments.of("-1e30", Long.MIN_VALUE, Long.MIN_VALUE),
        Arguments.of("1e2000000000", Long.MAX_VALUE, Long.MAX_VALUE),
        Arguments.of("0", 0L, 0L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("roundedValues")
  void valueAndMilliValueRoundAwayFromZero(String in, long value, long milli) {
    Quantity q = Quantity.parse(in);
    assertThat(q.value()).isEqualTo(value);
    assertThat(q.milliValue()).isEqualTo(milli);
  }

  @Test
  void scaledValueAsUpstreamTable() {
    int[] scales = {-9, -6, -3, 0};
    for (int from : scales) {
      for (int to : scales) {
        long expected = from >= to ? (long) Math.pow(10, from - to) : 1;
        assertThat(Quantity.ofScaled(1, from, DSI).scaledValue(to))
            .as("%d -> %d", from, to)
            .isEqualTo(expected);
      }
    }
    assertThat(Quantity.ofScaled(1, 2, DSI).scaledValue(-2)).isEqualTo(10000);
  }

  static Stream<Arguments> doubles() {
    double mi7 = 7 * 1024 * 1024;
    return Stream.of(
        Arguments.of(Quantity.parse("0"), 0.0),
        Arguments.of(Quantity.parse("1"), 1.0),
        Arguments.of(Quantity.parse("2Ki"), 2048.0),
        Arguments.of(Quantity.parse("1.1Ki"), 1126.4),
        Arguments.of(Quantity.parse("1Mi"), 1.048576e+06),
        Arguments.of(Quantity.parse("2Gi"), 2.147483648e+09),
        Arguments.of(Quantity.ofScaled(7 * 1024 * 1024, 1, BSI), mi7 * 10),
        Arguments.of(Quantity.ofScaled(7 * 1024 * 1024, 8, BSI), mi7 * 100000000),
        Arguments.of(Quantity.ofScaled(7 * 1024 * 1024, -1, DSI), mi7 * 0.1),
        Arguments.of(Quantity.ofScaled(7 * 1024 * 1024, -8, DSI), mi7 / 100000000),
        Arguments.of(Quantity.of(BigDecimal.valueOf(mi7).movePointLeft(1), DSI), mi7 * 0.1),
        Arguments.of(Quantity.parse("9Ei"), 9.223372036854775807e18),
        Arguments.of(Quantity.parse("12E"), 1.2e19),
        Arguments.of(Quantity.of(new BigDecimal("12e500"), DSI), Double.POSITIVE_INFINITY),
        Arguments.of(Quantity.of(new BigDecimal("-12e500"), DSI), Double.NEGATIVE_INFINITY));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("doubles")
  void approximateDouble(Quantity q, double expected) {
    assertThat(q.asApproximateDouble()).isEqualTo(expected);
  }

  @Test
  void fabric8RoundTrip() {
    for (String s : new String[] {"1Gi", "500m", "1500M", "-1.5Gi", "1e-3", "5e21", "0", "12E"}) {
      Quantity q = Quantity.parse(s);
      io.fabric8.kubernetes.api.model.Quantity f = q.toFabric8();
      assertThat(f.toString()).isEqualTo(q.toString());
      assertThat(Quantity.of(f)).isEqualTo(q).hasToString(q.toString());
      assertThat(Quantity.of(new io.fabric8.kubernetes.api.model.Quantity(s))).isEqualTo(q);
    }
    assertThat(Quantity.of(new io.fabric8.kubernetes.api.model.Quantity("1", "Gi")))
        .hasToString("1Gi");
    assertThat(Quantity.parse("1.5Gi").toFabric8().getAmount()).isEqualTo("1536");
    // fabric8 keeps surrounding white space; upstream's JSON decoding trims it
    assertThat(Quantity.of(new io.fabric8.kubernetes.api.model.Quantity("\t2Gi\n")))
        .hasToString("2Gi");
    assertThat(Quantity.of(new io.fabric8.kubernetes.api.model.Quantity("\u00a01 ")))
        .hasToString("1");
    assertThatThrownBy(() -> Quantity.of(new io.fabric8.kubernetes.api.model.Quantity(" ")))
        .isInstanceOf(QuantityFormatException.class);
    assertThat(Quantity.parse("1.5Gi").toFabric8().getFormat()).isEqualTo("Mi");
  }

  static Stream<Arguments> products() {
    long max = Long.MAX_VALUE;
    long min = Long.MIN_VALUE;
    return Stream.of(
        // quantity, factor, exact product, stays int64 (asLong present)
        Arguments.of(Quantity.ofLong(10, DSI), 10L, "100", true),
        Arguments.of(Quantity.ofLong(10, DSI), 1L, "10", true),
        Arguments.of(Quantity.ofLong(10, BSI), 1L, "10", true),
        Arguments.of(Quantity.ofLong(0, DSI), 50L, "0", true),
        Arguments.of(Quantity.ofLong(50, DSI), 0L, "0", true),
        Arguments.of(Quantity.ofLong(10, DSI), -10L, "-100", true),
        Arguments.of(Quantity.ofLong(-50, DSI), -50L, "2500", true),
        Arguments.of(Quantity.ofLong(max, DSI), 1L, Long.toString(max), true),
        Arguments.of(Quantity.ofLong(max, DSI), -1L, Long.toString(-max), true),
        Arguments.of(Quantity.ofLong(max / 2, DSI), 2L, Long.toString((max / 2) * 2), true),
        Arguments.of(Quantity.ofLong(max, DSI), 2L, "18446744073709551614", false),
        Arguments.of(Quantity.ofLong(max, DSI), 10L, "92233720368547758070", false),
        Arguments.of(Quantity.ofLong(min, DSI), 1L, Long.toString(min), true),
        Arguments.of(Quantity.ofLong(min, DSI), -1L, "9223372036854775808", false),
        Arguments.of(Quantity.ofLong(min / 2, DSI), 2L, Long.toString(min), true),
        Arguments.of(Quantity.ofLong(min, DSI), -10L, "92233720368547758080", false),
        // upstream keeps a negative scale only when the product stays exact at scale 0
        Arguments.of(Quantity.parse("1500m"), 2L, "3", false),
        Arguments.of(Quantity.parse("1500m"), 1L, "1.5", false),
        Arguments.of(Quantity.parse("1k"), 3L, "3000", true),
        Arguments.of(Quantity.parse("1E"), 10L, "1E+19", false),
        Arguments.of(Quantity.parse("1Pi"), 2L, "2251799813685248", false));
  }

  @ParameterizedTest(name = "{0} * {1}")
  @MethodSource("products")
  void multipliesAsUpstreamMul(Quantity q, long factor, String product, boolean int64) {
    Quantity r = q.multiply(factor);
    assertThat(r.toBigDecimal()).isEqualByComparingTo(product);
    assertThat(r.format()).isEqualTo(q.format());
    if (r.toBigDecimal().scale() <= 0 && !int64) {
      assertThat(r.asLong()).isEmpty();
    }
  }

  @Test
  void refusesAbsurdAlignmentInsteadOfExhaustingMemory() {
    Quantity huge = Quantity.parse("1e2000000000");
    assertThat(huge).hasToString("100e1999999998");
    assertThatThrownBy(() -> huge.add(Quantity.parse("1n")))
        .isInstanceOf(ArithmeticException.class)
        .hasMessage("quantity arithmetic would need more than 1000000 digits");
    assertThat(huge.add(Quantity.parse("0"))).isEqualTo(huge);
    assertThat(Quantity.parse("0").add(huge)).isEqualTo(huge);
    assertThat(huge.subtract(huge).isZero()).isTrue();
    assertThatThrownBy(() -> Quantity.parse("1Ki").add(huge))
        .isInstanceOf(ArithmeticException.class);
    // far beyond Ei: printed in decimal rather than as a giant binary multiple
    Quantity hugeBinary = Quantity.parse("1Ki").add(Quantity.parse("1e100"));
    assertThat(hugeBinary.format()).isEqualTo(BSI);
    assertThat(hugeBinary.toString()).hasSize(101).startsWith("1000").endsWith("01024");
  }
}
