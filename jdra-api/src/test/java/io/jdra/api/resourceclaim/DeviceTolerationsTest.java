package io.jdra.api.resourceclaim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DeviceTolerationsTest {
  private static final String ADDED = "2026-01-01T00:00:00Z";

  private static DeviceToleration tol(String key, String op, String value, String effect) {
    return new DeviceTolerationBuilder()
        .withKey(key)
        .withOperator(op)
        .withValue(value)
        .withEffect(effect)
        .build();
  }

  private static DeviceToleration tol(String key, String effect, Long seconds) {
    return new DeviceTolerationBuilder()
        .withKey(key)
        .withOperator("Exists")
        .withEffect(effect)
        .withTolerationSeconds(seconds)
        .build();
  }

  private static DeviceTaint taint(String key, String value, String effect) {
    return new DeviceTaintBuilder()
        .withKey(key)
        .withValue(value)
        .withEffect(effect)
        .withTimeAdded(ADDED)
        .build();
  }

  static Stream<Arguments> matching() {
    return Stream.of(
        Arguments.of(
            "same key and effect, Exists, taint without value",
            tol("foo", "Exists", null, "NoSchedule"),
            taint("foo", null, "NoSchedule"),
            true),
        Arguments.of(
            "same key and effect, Exists, taint with value",
            tol("foo", "Exists", null, "NoSchedule"),
            taint("foo", "bar", "NoSchedule"),
            true),
        Arguments.of(
            "empty key with Exists matches every key",
            tol("", "Exists", null, "NoSchedule"),
            taint("foo", "bar", "NoSchedule"),
            true),
        Arguments.of(
            "empty key, empty effect, Exists tolerates everything",
            tol(null, "Exists", null, null),
            taint("anything", "x", "NoExecute"),
            true),
        Arguments.of(
            "same key, effect and value, Equal",
            tol("foo", "Equal", "bar", "NoSchedule"),
            taint("foo", "bar", "NoSchedule"),
            true),
        Arguments.of(
            "empty operator means Equal",
            tol("foo", null, "bar", "NoSchedule"),
            taint("foo", "bar", "NoSchedule"),
            true),
        Arguments.of(
            "empty operator means Equal: different value",
            tol("foo", "", "baz", "NoSchedule"),
            taint("foo", "bar", "NoSchedule"),
            false),
        Arguments.of(
            "Equal with different values",
            tol("foo", "Equal", "value1", "NoSchedule"),
            taint("foo", "value2", "NoSchedule"),
            false),
        Arguments.of(
            "Equal with empty values on both sides",
            tol("foo", "Equal", null, "NoSchedule"),
            taint("foo", "", "NoSchedule"),
            true),
        Arguments.of(
            "same key and value, different effect",
            tol("foo", "Equal", "bar", "NoSchedule"),
            taint("foo", "bar", "NoExecute"),
            false),
        Arguments.of(
            "different key",
            tol("foo", "Exists", null, "NoExecute"),
            taint("other", "bar", "NoExecute"),
            false),
        Arguments.of(
            "empty effect matches NoExecute",
            tol("foo", "Exists", null, ""),
            taint("foo", "bar", "NoExecute"),
            true),
        Arguments.of(
            "empty effect matches None",
            tol("foo", "Exists", null, null),
            taint("foo", "bar", "None"),
            true),
        Arguments.of(
            "None matches None",
            tol("foo", "Exists", null, "None"),
            taint("foo", "bar", "None"),
            true),
        Arguments.of(
            "None does not match NoSchedule",
            tol("foo", "Exists", null, "None"),
            taint("foo", "bar", "NoSchedule"),
            false),
        Arguments.of(
            "NoSchedule does not match None",
            tol("foo", "Exists", null, "NoSchedule"),
            taint("foo", "bar", "None"),
            false),
        Arguments.of(
            "unknown operator tolerates nothing",
            tol("foo", "Gt", "bar", "NoSchedule"),
            taint("foo", "bar", "NoSchedule"),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("matching")
  void toleratesTaintAsUpstream(
      String name, DeviceToleration toleration, DeviceTaint taint, boolean expected) {
    assertThat(DeviceTolerations.toleratesTaint(toleration, taint)).isEqualTo(expected);
    assertThat(DeviceTolerations.toleratesTaint(List.of(toleration), taint)).isEqualTo(expected);
  }

  @Test
  void listToleratesWhenAnyDoes() {
    DeviceTaint t = taint("foo", "bar", "NoSchedule");
    assertThat(DeviceTolerations.toleratesTaint(List.of(), t)).isFalse();
    assertThat(DeviceTolerations.toleratesTaint((List<DeviceToleration>) null, t)).isFalse();
    assertThat(
            DeviceTolerations.toleratesTaint(
                List.of(tol("x", "Exists", null, null), tol("foo", "Exists", null, null)), t))
        .isTrue();
  }

  static Stream<Arguments> durations() {
    DeviceTaint noExecute = taint("foo", "bar", "NoExecute");
    return Stream.of(
        Arguments.of("no tolerations: evict at once", noExecute, List.of(), Optional.of(0L)),
        Arguments.of(
            "no seconds: tolerated forever",
            noExecute,
            List.of(tol("foo", "NoExecute", null)),
            Optional.empty()),
        Arguments.of(
            "one with seconds",
            noExecute,
            List.of(tol("foo", "NoExecute", 300L)),
            Optional.of(300L)),
        Arguments.of(
            "the smallest of several",
            noExecute,
            List.of(tol("foo", "NoExecute", 300L), tol("", "NoExecute", 60L)),
            Optional.of(60L)),
        Arguments.of(
            "forever wins over a limit",
            noExecute,
            List.of(tol("foo", "NoExecute", 60L), tol("foo", "NoExecute", null)),
            Optional.empty()),
        Arguments.of(
            "negative counts as zero",
            noExecute,
            List.of(tol("foo", "NoExecute", -5L), tol("foo", "NoExecute", 60L)),
            Optional.of(0L)),
        Arguments.of(
            "a toleration for another key does not count",
            noExecute,
            List.of(tol("other", "NoExecute", null)),
            Optional.of(0L)),
        Arguments.of(
            "an empty-effect toleration does not stop eviction",
            noExecute,
            List.of(tol("foo", null, null)),
            Optional.of(0L)),
        Arguments.of(
            "a NoSchedule toleration does not stop eviction",
            noExecute,
            List.of(tol("foo", "NoSchedule", null)),
            Optional.of(0L)),
        Arguments.of(
            "NoSchedule taints never evict",
            taint("foo", "bar", "NoSchedule"),
            List.of(),
            Optional.empty()),
        Arguments.of(
            "None taints never evict", taint("foo", "bar", "None"), List.of(), Optional.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("durations")
  void tolerationDurationAsTheEvictionController(
      String name, DeviceTaint taint, List<DeviceToleration> tolerations, Optional<Long> seconds) {
    assertThat(DeviceTolerations.tolerationDuration(taint, tolerations))
        .isEqualTo(seconds.map(Duration::ofSeconds));
    assertThat(DeviceTolerations.evictionTime(taint, tolerations))
        .isEqualTo(seconds.map(s -> Instant.parse(ADDED).plusSeconds(s)));
  }

  @Test
  void earliestEvictionOverSeveralTaints() {
    DeviceTaint a = taint("a", null, "NoExecute");
    DeviceTaint b =
        new DeviceTaintBuilder(taint("b", null, "NoExecute"))
            .withTimeAdded("2026-01-01T00:10:00Z")
            .build();
    List<DeviceToleration> tolerations = List.of(tol("a", "NoExecute", 3600L));
    assertThat(DeviceTolerations.evictionTime(List.of(a, b), tolerations))
        .contains(Instant.parse("2026-01-01T00:10:00Z"));
    assertThat(
            DeviceTolerations.evictionTime(List.of(a, taint("c", null, "NoSchedule")), tolerations))
        .contains(Instant.parse("2026-01-01T01:00:00Z"));
    assertThat(DeviceTolerations.evictionTime(List.of(), tolerations)).isEmpty();
  }

  @Test
  void missingTimeAddedIsAClearError() {
    DeviceTaint t =
        new DeviceTaintBuilder().withKey("k").withValue("v").withEffect("NoExecute").build();
    assertThatThrownBy(() -> DeviceTolerations.evictionTime(t, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("device taint \"k=v:NoExecute\": timeAdded is not set");
    DeviceTaint bad = new DeviceTaintBuilder(t).withTimeAdded("yesterday").build();
    assertThatThrownBy(() -> DeviceTolerations.evictionTime(bad, List.of()))
        .hasMessage("device taint \"k=v:NoExecute\": timeAdded \"yesterday\" is not RFC 3339");
  }

  @Test
  void hugeTolerationSecondsSaturate() {
    DeviceTaint t = taint("foo", null, "NoExecute");
    assertThat(DeviceTolerations.evictionTime(t, List.of(tol("foo", "NoExecute", Long.MAX_VALUE))))
        .contains(Instant.MAX);
  }
}
