package io.jdra.cli.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Arrival times drawn from a scenario, and the duration syntax. */
class WorkloadTest {
  static Scenario.PodTemplate template(
      String name, int count, double rate, boolean poisson, Duration start, Duration until) {
    return new Scenario.PodTemplate(
        name, count, rate, poisson, start, until, null, null, null, 0, Map.of(), List.of());
  }

  static Scenario scenario(Duration duration, Scenario.PodTemplate... pods) {
    return new Scenario("s", 1, duration, null, List.of(), List.of(), List.of(pods), List.of());
  }

  static Stream<Arguments> cases() {
    Duration h = Duration.ofHours(1);
    return Stream.of(
        Arguments.of(
            "a count arrives at once at start",
            scenario(null, template("a", 3, 0, true, Duration.ofMinutes(5), null)),
            List.of(300.0, 300.0, 300.0)),
        Arguments.of(
            "uniform rate: evenly spaced from start until until",
            scenario(null, template("a", 0, 1 / 600.0, false, Duration.ZERO, h)),
            List.of(0.0, 600.0, 1200.0, 1800.0, 2400.0, 3000.0, 3600.0)),
        Arguments.of(
            "a count at a rate stops at the count",
            scenario(null, template("a", 2, 1 / 60.0, false, Duration.ZERO, null)),
            List.of(0.0, 60.0)),
        Arguments.of(
            "the scenario's duration ends a rate without until",
            scenario(Duration.ofMinutes(2), template("a", 0, 1 / 60.0, false, Duration.ZERO, null)),
            List.of(0.0, 60.0, 120.0)),
        Arguments.of(
            "templates merge in time order",
            scenario(
                null,
                template("a", 1, 0, true, Duration.ofMinutes(2), null),
                template("b", 1, 0, true, Duration.ofMinutes(1), null)),
            List.of(60.0, 120.0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void arrivals(String name, Scenario s, List<Double> seconds) {
    assertThat(Workload.arrivals(s))
        .extracting(a -> a.at().toMillis() / 1000.0)
        .containsExactlyElementsOf(seconds);
  }

  @Test
  void poissonArrivalsHaveTheMeanRateAndDependOnlyOnTheSeed() {
    Scenario s =
        scenario(null, template("a", 0, 1 / 60.0, true, Duration.ZERO, Duration.ofHours(100)));
    List<Workload.Arrival> a = Workload.arrivals(s);
    assertThat(a.size()).isBetween(5700, 6300); // 6,000 expected, within 4 standard deviations
    assertThat(Workload.arrivals(s)).isEqualTo(a);
  }

  @Test
  void durations() {
    assertThat(Durations.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("0")).isEqualTo(Duration.ZERO);
    assertThatThrownBy(() -> Durations.parse("10 minutes"))
        .hasMessage("invalid duration \"10 minutes\" (e.g. 90s, 1h30m, 1.5h)");
    assertThatThrownBy(() -> Durations.parse("")).isInstanceOf(IllegalArgumentException.class);
    assertThat(Durations.format(Duration.ofSeconds(3723))).isEqualTo("1h2m3s");
    assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
    assertThat(Durations.formatSeconds(49.96)).isEqualTo("50s");
    assertThat(Durations.formatSeconds(3799.6)).isEqualTo("1h3m20s");
  }
}
