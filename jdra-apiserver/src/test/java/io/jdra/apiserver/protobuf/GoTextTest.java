package io.jdra.apiserver.protobuf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** metav1.Time, MicroTime and Duration written as Go writes them. */
class GoTextTest {
  static Stream<Arguments> durations() {
    return Stream.of(
        Arguments.of(0L, "0s"),
        Arguments.of(1L, "1ns"),
        Arguments.of(1_500L, "1.5µs"),
        Arguments.of(2_000_000L, "2ms"),
        Arguments.of(1_234_567L, "1.234567ms"),
        Arguments.of(1_000_000_000L, "1s"),
        Arguments.of(2_500_000_000L, "2.5s"),
        Arguments.of(60_000_000_000L, "1m0s"),
        Arguments.of(90_000_000_000L, "1m30s"),
        Arguments.of(3_600_000_000_000L, "1h0m0s"),
        Arguments.of(3_723_000_000_001L, "1h2m3.000000001s"),
        Arguments.of(-90_000_000_000L, "-1m30s"));
  }

  @ParameterizedTest(name = "{0}ns = {1}")
  @MethodSource("durations")
  void durationsAsGoPrintsThem(long nanos, String text) {
    assertThat(GoText.duration(nanos)).isEqualTo(text);
  }

  static Stream<Arguments> times() {
    return Stream.of(
        Arguments.of(0L, 0L, false, "1970-01-01T00:00:00Z"),
        Arguments.of(1700000000L, 999_999_999L, false, "2023-11-14T22:13:20Z"),
        Arguments.of(1700000000L, 5_000L, true, "2023-11-14T22:13:20.000005Z"),
        Arguments.of(1700000000L, 0L, true, "2023-11-14T22:13:20.000000Z"),
        Arguments.of(GoText.ZERO_TIME_SECONDS, 0L, false, null));
  }

  @ParameterizedTest(name = "{0}.{1} micro={2}")
  @MethodSource("times")
  void timesInUtcRfc3339(long seconds, long nanos, boolean micro, String text) {
    assertThat(GoText.time(seconds, nanos, micro)).isEqualTo(text);
  }
}
