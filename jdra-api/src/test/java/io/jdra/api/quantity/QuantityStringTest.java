package io.jdra.api.quantity;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.api.quantity.Quantity.Format;
import java.math.BigDecimal;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Canonical printing, after upstream's String/ParseEmit tables (apimachinery 1.36). */
class QuantityStringTest {
  private static final Format DSI = Format.DECIMAL_SI;
  private static final Format BSI = Format.BINARY_SI;
  private static final Format EXP = Format.DECIMAL_EXPONENT;

  /** A value (unscaled * 10^exponent) in a format, its canonical form, and another spelling. */
  static Stream<Arguments> canonical() {
    return Stream.of(
        row(1024L * 1024 * 1024, 0, BSI, "1Gi", "1024Mi"),
        row(300L * 1024 * 1024, 0, BSI, "300Mi", "307200Ki"),
        row(6L * 1024, 0, BSI, "6Ki", ""),
        row(1001L * 1024 * 1024 * 1024, 0, BSI, "1001Gi", "1025024Mi"),
        row(1024L * 1024 * 1024 * 1024, 0, BSI, "1Ti", "1024Gi"),
        row(5, 0, BSI, "5", "5000m"),
        row(500, -3, BSI, "500m", "0.5"),
        row(1, 9, DSI, "1G", "1000M"),
        row(1000, 6, DSI, "1G", "0.001T"),
        row(1000000, 3, DSI, "1G", ""),
        row(1000000000, 0, DSI, "1G", ""),
        row(1, -3, DSI, "1m", "1000u"),
        row(80, -3, DSI, "80m", ""),
        row(1080, -3, DSI, "1080m", "1.08"),
        row(108, -2, DSI, "1080m", "1080000000n"),
        row(10800, -4, DSI, "1080m", ""),
        row(300, 6, DSI, "300M", ""),
        row(1, 12, DSI, "1T", ""),
        row(1, 18, DSI, "1E", ""),
        row(1, 21, DSI, "1e21", "1000E"),
        row(5, 21, DSI, "5e21", "5000E"),
        row(1, 24, DSI, "1e24", "1000000E"),
        row(1234567, 6, DSI, "1234567M", ""),
        row(1234567, -3, BSI, "1234567m", ""),
        row(3, 3, DSI, "3k", ""),
        row(1025, 0, BSI, "1025", ""),
        row(0, 0, DSI, "0", ""),
        row(0, 0, BSI, "0", ""),
        row(1, 9, EXP, "1e9", ".001e12"),
        row(1, -3, EXP, "1e-3", "0.001e0"),
        row(1, -9, EXP, "1e-9", "1000e-12"),
        row(80, -3, EXP, "80e-3", ""),
        row(300, 6, EXP, "300e6", ""),
        row(1, 12, EXP, "1e12", ""),
        row(1, 3, EXP, "1e3", ""),
        row(3, 3, EXP, "3e3", ""),
        row(0, 0, EXP, "0", "00"),
        row(1, -9, DSI, "1n", ""),
        row(80, -9, DSI, "80n", ""),
        row(1080, -9, DSI, "1080n", ""),
        row(108, -8, DSI, "1080n", ""),
        row(10800, -10, DSI, "1080n", ""),
        row(1, -6, DSI, "1u", ""),
        row(80, -6, DSI, "80u", ""),
        row(1080, -6, DSI, "1080u", ""));
  }

  private static Arguments row(long unscaled, int exponent, Format f, String out, String alt) {
    return Arguments.of(unscaled, exponent, f, out, alt);
  }

  @ParameterizedTest(name = "{3}")
  @MethodSource("canonical")
  void printsCanonicalForm(long unscaled, int exponent, Format f, String out, String alt) {
    BigDecimal v = BigDecimal.valueOf(unscaled, -exponent);
    assertThat(Quantity.of(v, f)).hasToString(out);
    if (exponent >= -9) {
      assertThat(Quantity.ofScaled(unscaled, exponent, f)).hasToString(out);
    }
    if (unscaled != 0) {
      assertThat(Quantity.of(v.negate(), f)).hasToString("-" + out);
    }
    assertThat(Quantity.parse(out)).hasToString(out);
    if (!alt.isEmpty()) {
      Quantity q = Quantity.parse(alt);
      assertThat(q).hasToString(out);
      assertThat(q.toBigDecimal()).isEqualByComparingTo(v);
    }
  }

  static Stream<Arguments> parseEmit() {
    return Stream.of(
        Arguments.of("1Ki", "1Ki"),
        Arguments.of("1Mi", "1Mi"),
        Arguments.of("1Gi", "1Gi"),
        Arguments.of("1024Mi", "1Gi"),
        Arguments.of("1000M", "1G"),
        Arguments.of(".001Ki", "1024m"),
        Arguments.of(".000001Ki", "1024u"),
        Arguments.of(".000000001Ki", "1024n"),
        Arguments.of(".000000000001Ki", "2n"),
        // the examples the jdra issue calls out
        Arguments.of("500m", "500m"),
        Arguments.of("1500M", "1500M"),
        Arguments.of("0.5", "500m"),
        Arguments.of("1.5", "1500m"),
        Arguments.of("1.5Gi", "1536Mi"),
        Arguments.of("100.035Ki", "102435840m"),
        Arguments.of("0.5Mi", "512Ki"),
        Arguments.of("1.2345", "1234500u"),
        Arguments.of("0.9n", "1n"),
        Arguments.of("9Ei", "9223372036854775807"),
        Arguments.of("3Ei", "3Ei"),
        Arguments.of("1Pi", "1Pi"),
        Arguments.of("2048Ki", "2Mi"),
        Arguments.of("1e3", "1e3"),
        Arguments.of("1000e0", "1e3"),
        Arguments.of("12E", "12E"),
        Arguments.of("12000E", "12e21"),
        Arguments.of("18446744073709551616", "18446744073709551616"),
        Arguments.of("0m", "0"),
        Arguments.of("-0", "0"),
        Arguments.of("0.0", "0"),
        Arguments.of("1000", "1k"),
        Arguments.of("1.0", "1"),
        // upstream keeps a parsed string it thinks canonical, verbatim
        Arguments.of("+1", "+1"),
        Arguments.of("01", "01"),
        Arguments.of("1.", "1."),
        Arguments.of("1.G", "1.G"),
        Arguments.of("1.500k", "1.500k"),
        Arguments.of("1E3", "1E3"),
        Arguments.of("+3Ki", "+3Ki"),
        Arguments.of("1024Ki", "1Mi"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("parseEmit")
  void parseThenPrint(String in, String out) {
    assertThat(Quantity.parse(in)).hasToString(out);
    Quantity negative = Quantity.parse("-" + in.replaceFirst("^[+-]", ""));
    if (!negative.isZero() && !out.startsWith("+") && !out.startsWith("0")) {
      String expectedNegative = in.startsWith("+") ? "-" + out.substring(1) : "-" + out;
      if (out.equals(in)) {
        expectedNegative = "-" + in.replaceFirst("^[+-]", "");
      }
      assertThat(negative).hasToString(expectedNegative);
    }
  }

  @Test
  void ofLongPrintsAsUpstreamNewQuantity() {
    assertThat(Quantity.ofLong(1, DSI)).hasToString("1");
    assertThat(Quantity.ofLong(1000, DSI)).hasToString("1k");
    assertThat(Quantity.ofLong(1234000, DSI)).hasToString("1234k");
    assertThat(Quantity.ofLong(1024, BSI)).hasToString("1Ki");
    assertThat(Quantity.ofLong(1000000, EXP)).hasToString("1e6");
    assertThat(Quantity.ofLong(1024 * 1024, BSI)).hasToString("1Mi");
    assertThat(Quantity.ofScaled(1, -3, DSI)).hasToString("1m");
    assertThat(Quantity.ofScaled(1000, -3, DSI)).hasToString("1");
    assertThat(Quantity.ofScaled(1234000, -3, DSI)).hasToString("1234");
    assertThat(Quantity.ofScaled(1024, -3, BSI)).hasToString("1024m");
    assertThat(Quantity.ofScaled(1000000, -3, EXP)).hasToString("1e3");
    assertThat(Quantity.ofScaled(1024 * 1024, -3, BSI)).hasToString("1048576m");
    assertThat(Quantity.ofScaled(1000, -9, DSI)).hasToString("1u");
    assertThat(Quantity.ofLong(Long.MIN_VALUE, DSI)).hasToString("-9223372036854775808");
    assertThat(Quantity.ofLong(Long.MAX_VALUE, BSI)).hasToString("9223372036854775807");
  }
}
