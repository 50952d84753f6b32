package io.jdra.kubelet.dra;

import io.jdra.runtime.clock.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The latest device health per driver (upstream healthInfoCache). A device whose driver has not
 * refreshed it within its health-check timeout counts as {@code Unknown}: a driver that stops
 * reporting must not leave devices looking healthy. Thread-safe.
 */
public final class HealthInfoCache {
  /** Upstream DefaultHealthTimeout: used when the driver gives no positive timeout. */
  public static final Duration DEFAULT_HEALTH_TIMEOUT = Duration.ofSeconds(30);

  /** Upstream v1.ResourceHealthMessageMaxLength. */
  public static final int MESSAGE_MAX_LENGTH = 1024;

  private final Clock clock;
  private final Map<String, Map<String, DeviceHealth>> byDriver = new HashMap<>();

  public HealthInfoCache(Clock clock) {
    this.clock = clock;
  }

  /** Health of a device: Unknown when never reported or not refreshed in time. */
  public synchronized DeviceHealth get(String driver, String pool, String device) {
    DeviceHealth h = byDriver.getOrDefault(driver, Map.of()).get(pool + "/" + device);
    if (h == null) {
      return new DeviceHealth(pool, device, DeviceHealth.UNKNOWN, null, DEFAULT_HEALTH_TIMEOUT, "");
    }
    if (clock.since(h.lastUpdated()).compareTo(h.healthCheckTimeout()) > 0) {
      return new DeviceHealth(
          pool, device, DeviceHealth.UNKNOWN, h.lastUpdated(), h.healthCheckTimeout(), h.message());
    }
    return h;
  }

  /**
   * Records a report of {@code driver} and returns the devices whose effective health or message
   * changed (including devices that had timed out to Unknown and are now reported again).
   */
  public synchronized List<DeviceHealth> update(String driver, List<DeviceHealth> devices) {
    List<DeviceHealth> changed = new ArrayList<>();
    Map<String, DeviceHealth> current = byDriver.computeIfAbsent(driver, d -> new HashMap<>());
    for (DeviceHealth d : devices) {
      DeviceHealth before = get(driver, d.poolName(), d.deviceName());
      DeviceHealth now = withDefaults(d);
      current.put(d.poolName() + "/" + d.deviceName(), now);
      if (!before.health().equals(now.health()) || !before.message().equals(now.message())) {
        changed.add(now);
      }
    }
    return changed;
  }

  /** Forgets a driver whose health stream ended: its devices become Unknown. */
  public synchronized void clearDriver(String driver) {
    byDriver.remove(driver);
  }

  /** Upstream truncateHealthMessage: at most 1024 bytes, ending in "..." when cut. */
  public static String truncateMessage(String message) {
    if (message == null) {
      return "";
    }
    if (message.length() <= MESSAGE_MAX_LENGTH) {
      return message;
    }
    return message.substring(0, MESSAGE_MAX_LENGTH - 3) + "...";
  }

  private DeviceHealth withDefaults(DeviceHealth d) {
    Duration timeout =
        d.healthCheckTimeout() == null
                || d.healthCheckTimeout().isZero()
                || d.healthCheckTimeout().isNegative()
            ? DEFAULT_HEALTH_TIMEOUT
            : d.healthCheckTimeout();
    return new DeviceHealth(
        d.poolName(),
        d.deviceName(),
        d.health(),
        d.lastUpdated() == null ? clock.now() : d.lastUpdated(),
        timeout,
        truncateMessage(d.message()));
  }
}
