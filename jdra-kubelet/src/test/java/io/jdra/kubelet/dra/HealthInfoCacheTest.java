package io.jdra.kubelet.dra;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.runtime.clock.FakeClock;
import io.jdra.runtime.logging.Logger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Device health on a fake clock, and its state file across kubelet restarts. */
class HealthInfoCacheTest {
  static final String GPU = "gpu.example.com";
  final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  @TempDir Path dir;

  HealthInfoCache cache() {
    return new HealthInfoCache(clock, dir.resolve(HealthInfoCache.STATE_FILE), Logger.discard());
  }

  static DeviceHealth report(String device, String health, int timeoutSeconds, String message) {
    // The driver's own update time is ignored: the kubelet counts from when it got the report.
    return new DeviceHealth(
        "pool", device, health, Instant.EPOCH, Duration.ofSeconds(timeoutSeconds), message);
  }

  @Test
  void healthSurvivesARestartInUpstreamsFileFormat() throws Exception {
    cache().update(GPU, List.of(report("gpu-0", DeviceHealth.UNHEALTHY, 60, "ECC errors")));

    assertThat(Files.readString(dir.resolve("dra_health_state")))
        .isEqualTo(
            "{\"gpu.example.com\":{\"Devices\":{\"pool/gpu-0\":{\"PoolName\":\"pool\","
                + "\"DeviceName\":\"gpu-0\",\"Health\":\"Unhealthy\","
                + "\"LastUpdated\":\"2026-01-01T00:00:00Z\",\"HealthCheckTimeout\":60000000000,"
                + "\"Message\":\"ECC errors\"}}}}");
    clock.step(Duration.ofSeconds(30));
    HealthInfoCache restarted = cache();
    DeviceHealth h = restarted.get(GPU, "pool", "gpu-0");
    assertThat(h.health()).isEqualTo(DeviceHealth.UNHEALTHY);
    assertThat(h.message()).isEqualTo("ECC errors");
    // The timeout still counts from the report before the restart.
    clock.step(Duration.ofSeconds(31));
    assertThat(restarted.get(GPU, "pool", "gpu-0"))
        .satisfies(u -> {
          assertThat(u.health()).isEqualTo(DeviceHealth.UNKNOWN);
          assertThat(u.message()).isEmpty();
        });
  }

  @Test
  void readsAFileWrittenByAGoKubelet() throws Exception {
    // A local-zone time with nanoseconds, and an older file without timeout and message.
    Files.writeString(
        dir.resolve("dra_health_state"),
        "{\"gpu.example.com\":{\"Devices\":{\"pool/gpu-1\":{\"PoolName\":\"pool\","
            + "\"DeviceName\":\"gpu-1\",\"Health\":\"Healthy\","
            + "\"LastUpdated\":\"2026-01-01T01:00:00.123456789+01:00\"}}}}");
    HealthInfoCache c = cache();
    assertThat(c.get(GPU, "pool", "gpu-1").health()).isEqualTo(DeviceHealth.HEALTHY);
    assertThat(c.get(GPU, "pool", "gpu-1").healthCheckTimeout())
        .isEqualTo(HealthInfoCache.DEFAULT_HEALTH_TIMEOUT);
    clock.step(Duration.ofSeconds(31));
    assertThat(c.get(GPU, "pool", "gpu-1").health()).isEqualTo(DeviceHealth.UNKNOWN);
  }

  @Test
  void anUnreadableFileStartsEmptyAndIsReplacedByTheNextChange() throws Exception {
    Path file = dir.resolve("dra_health_state");
    Files.writeString(file, "{not json");
    HealthInfoCache c = cache();
    assertThat(c.get(GPU, "pool", "gpu-0").health()).isEqualTo(DeviceHealth.UNKNOWN);
    c.update(GPU, List.of(report("gpu-0", DeviceHealth.HEALTHY, 30, "")));
    assertThat(cache().get(GPU, "pool", "gpu-0").health()).isEqualTo(DeviceHealth.HEALTHY);
    assertThat(dir).isDirectoryNotContaining("glob:**.tmp");
  }

  @Test
  void changesAreReportedOnceAndDevicesLeftOutTimeOutToUnknown() {
    HealthInfoCache c = cache();
    assertThat(
            c.update(
                GPU,
                List.of(
                    report("gpu-0", DeviceHealth.HEALTHY, 10, ""),
                    report("gpu-1", DeviceHealth.HEALTHY, 10, ""))))
        .extracting(DeviceHealth::deviceName)
        .containsExactly("gpu-0", "gpu-1");
    clock.step(Duration.ofSeconds(5));
    assertThat(c.update(GPU, List.of(report("gpu-0", DeviceHealth.HEALTHY, 10, "")))).isEmpty();
    // gpu-1 is no longer reported; once its timeout passed the next report marks it Unknown.
    clock.step(Duration.ofSeconds(6));
    assertThat(c.update(GPU, List.of(report("gpu-0", DeviceHealth.HEALTHY, 10, ""))))
        .singleElement()
        .satisfies(d -> {
          assertThat(d.deviceName()).isEqualTo("gpu-1");
          assertThat(d.health()).isEqualTo(DeviceHealth.UNKNOWN);
        });
    assertThat(cache().get(GPU, "pool", "gpu-1").health()).isEqualTo(DeviceHealth.UNKNOWN);
    // A changed message or timeout is a change too.
    assertThat(c.update(GPU, List.of(report("gpu-0", DeviceHealth.HEALTHY, 20, "")))).hasSize(1);
    assertThat(c.update(GPU, List.of(report("gpu-0", DeviceHealth.HEALTHY, 20, "hot")))).hasSize(1);
  }

  @Test
  void aClearedDriverStaysClearedAfterARestart() {
    HealthInfoCache c = cache();
    c.update(GPU, List.of(report("gpu-0", DeviceHealth.HEALTHY, 60, "")));
    c.clearDriver(GPU);
    assertThat(cache().get(GPU, "pool", "gpu-0").health()).isEqualTo(DeviceHealth.UNKNOWN);
  }
}
