package io.jdra.api.quantity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdra.api.quantity.Quantity.Format;
import io.jdra.api.quantity.QuantityFormatException.Kind;
import java.math.BigDecimal;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What each accepted spelling means, after upstream's parse table (apimachinery 1.36). */
class QuantityParseTest {
  private static final Format DSI = Format.DECIMAL_SI;
  private static final Format BSI = Format.BINARY_SI;
  private static final Format EXP = Format.DECIMAL_EXPONENT;

  static Stream<Arguments> accepted() {
    return Stream.of(
        // zero in every suffix keeps the suffix's format
        row("0", "0", DSI),
        row("0n", "0", DSI),
        row("0u", "0", DSI),
        row("0m", "0", DSI),
        row("0Ki", "0", BSI),
        row("0k", "0", DSI),
        row("0Mi", "0", BSI),
        row("0M", "0", DSI),
        row("0Gi", "0", BSI),
        row("0G", "0", DSI),
        row("0Ti", "0", BSI),
        row("0T", "0", DSI),
        row("1", "1", DSI),
        // binary suffixes
        row("1Ki", "1024", BSI),
        row("8Ki", "8192", BSI),
        row("7Mi", "7340032", BSI),
        row("6Gi", "6442450944", BSI),
        row("5Ti", "5497558138880", BSI),
        row("4Pi", "4503599627370496", BSI),
        row("3Ei", "3458764513820540928", BSI),
        row("10Ti", "10995116277760", BSI),
        row("100Ti", "109951162777600", BSI),
        // decimal suffixes
        row("5n", "0.000000005", DSI),
        row("4u", "0.000004", DSI),
        row("3m", "0.003", DSI),
        row("9", "9", DSI),
        row("8k", "8000", DSI),
        row("50k", "50000", DSI),
        row("7M", "7E+6", DSI),
        row("6G", "6E+9", DSI),
        row("5T", "5E+12", DSI),
        row("40T", "4E+13", DSI),
        row("300T", "3E+14", DSI),
        row("2P", "2E+15", DSI),
        row("1E", "1E+18", DSI),
        // exponents
        row("1E-3", "0.001", EXP),
        row("1e3", "1000", EXP),
        row("1E6", "1E+6", EXP),
        row("1e9", "1E+9", EXP),
        row("1E12", "1E+12", EXP),
        row("1e15", "1E+15", EXP),
        row("1E18", "1E+18", EXP),
        row("1e14", "1E+14", EXP),
        row("1e13", "1E+13", EXP),
        row("100.035k", "100035", DSI),
        // things that look like floating point
        row("0.001", "0.001", DSI),
        row("0.0005k", "0.5", DSI),
        row("0.005", "0.005", DSI),
        row("0.05", "0.05", DSI),
        row("0.5", "0.5", DSI),
        row("0.00050k", "0.5", DSI),
        row("0.00500", "0.005", DSI),
        row("0.05000", "0.05", DSI),
        row("0.50000", "0.5", DSI),
        row("0.5e0", "0.5", EXP),
        row("0.5e-1", "0.05", EXP),
        row("0.5e-2", "0.005", EXP),
        row("10.035M", "10035000", DSI),
        row("1.2e3", "1200", EXP),
        row("1.3E+6", "1300000", EXP),
        row("1.40e9", "1400000000", EXP),
        row("1.53E12", "1530000000000", EXP),
        row("1.6e15", "1.6E+15", EXP),
        row("1.7E18", "1.7E+18", EXP),
        row("9.01", "9.01", DSI),
        row("8.1k", "8100", DSI),
        row("7.123456M", "7123456", DSI),
        row("6.987654321G", "6987654321", DSI),
        row("5.444T", "5444000000000", DSI),
        row("40.1T", "40100000000000", DSI),
        row("300.2T", "300200000000000", DSI),
        row("2.5P", "2500000000000000", DSI),
        row("1.01E", "1010000000000000000", DSI),
        // below nano rounds away from zero; binary saturates at 2^63-1
        row("3.001n", "0.000000004", DSI),
        row("1.1E-9", "0.000000002", EXP),
        row("0.0000000001", "0.000000001", DSI),
        row("0.0000000005", "0.000000001", DSI),
        row("0.00000000050", "0.000000001", DSI),
        row("0.5e-9", "0.000000001", EXP),
        row("0.9n", "0.000000001", DSI),
        row("0.00000012345", "0.000000124", DSI),
        row("0.00000012354", "0.000000124", DSI),
        row("9Ei", "9223372036854775807", BSI),
        row("8Ei", "9223372036854775807", BSI),
        row("9223372036854775807Ki", "9223372036854775807", BSI),
        row("12E", "1.2E+19", DSI),
        row("18446744073709551616", "18446744073709551616", DSI),
        // fractional binary
        row("100.035Ki", "102435.84", BSI),
        row("0.5Mi", "524288", BSI),
        row("0.05Gi", "53687091.2", BSI),
        row("0.025Ti", "27487790694.4", BSI),
        // odd but accepted; a tiny binary value changes format
        row("0.000000000001Ki", "0.000000002", DSI),
        row(".001", "0.001", DSI),
        row(".0001k", "0.1", DSI),
        row("1.", "1", DSI),
        row("1.G", "1000000000", DSI),
        row("+", "0", DSI),
        row("-", "0", DSI),
        row(".", "0", DSI),
        row("-.", "0", DSI),
        row("000", "0", DSI),
        row("007k", "7000", DSI),
        row("1e+3", "1000", EXP));
  }

  private static Arguments row(String in, String value, Format format) {
    return Arguments.of(in, value, format);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("accepted")
  void parsesValueAndFormat(String in, String value, Format format) {
    Quantity q = Quantity.parse(in);
    assertThat(q.toBigDecimal()).isEqualByComparingTo(new BigDecimal(value));
    assertThat(q.format()).isEqualTo(format);
  }

  @ParameterizedTest(name = "-{0}")
  @MethodSource("accepted")
  void negativeSpellingNegates(String in, String value, Format format) {
    Quantity q = Quantity.parse("-" + in.replaceFirst("^[+-]", ""));
    assertThat(q.toBigDecimal()).isEqualByComparingTo(new BigDecimal(value).negate());
    assertThat(q.format()).isEqualTo(format);
  }

  @ParameterizedTest(name = "+{0}")
  @MethodSource("accepted")
  void explicitPlusChangesNothing(String in, String value, Format format) {
    Quantity q = Quantity.parse("+" + in.replaceFirst("^[+-]", ""));
    assertThat(q.toBigDecimal()).isEqualByComparingTo(new BigDecimal(value));
    assertThat(q.format()).isEqualTo(format);
  }

  static Stream<Arguments> rejected() {
    return Stream.of(
        Arguments.of("", Kind.FORMAT_WRONG),
        Arguments.of("1.1.M", Kind.FORMAT_WRONG),
        Arguments.of("1+1.0M", Kind.FORMAT_WRONG),
        Arguments.of("0.1mi", Kind.SUFFIX),
        Arguments.of("0.1am", Kind.FORMAT_WRONG),
        Arguments.of("aoeu", Kind.FORMAT_WRONG),
        Arguments.of(".5i", Kind.SUFFIX),
        Arguments.of("1i", Kind.SUFFIX),
        Arguments.of("-3.01i", Kind.SUFFIX),
        Arguments.of("-3.01e-", Kind.SUFFIX),
        Arguments.of(" 1", Kind.FORMAT_WRONG),
        Arguments.of("1 ", Kind.FORMAT_WRONG),
        Arguments.of("1K", Kind.SUFFIX),
        Arguments.of("1kb", Kind.FORMAT_WRONG),
        Arguments.of("1e", Kind.SUFFIX),
        Arguments.of("1e3e", Kind.FORMAT_WRONG),
        Arguments.of("1e99999999999999999999", Kind.SUFFIX),
        Arguments.of("1Kii", Kind.SUFFIX),
        Arguments.of("Non-Numeric", Kind.FORMAT_WRONG),
        Arguments.of(".e-20", Kind.NUMERIC),
        Arguments.of("1\u0663", Kind.FORMAT_WRONG));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @MethodSource("rejected")
  void rejectsWithUpstreamMessage(String in, Kind kind) {
    assertThatThrownBy(() -> Quantity.parse(in))
        .isInstanceOfSatisfying(
            QuantityFormatException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(kind);
              assertThat(e.input()).isEqualTo(in);
            })
        .hasMessage(kind.message());
  }

  @org.junit.jupiter.api.Test
  void upstreamMessagesVerbatim() {
    assertThat(Kind.FORMAT_WRONG.message())
        .isEqualTo(
            "quantities must match the regular expression"
                + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    assertThat(Kind.NUMERIC.message()).isEqualTo("unable to parse numeric part of quantity");
    assertThat(Kind.SUFFIX.message()).isEqualTo("unable to parse quantity's suffix");
    assertThatThrownBy(() -> Quantity.parse(null)).isInstanceOf(QuantityFormatException.class);
  }
}
