package io.jdra.kubelet.dra;

import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.logging.Logger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The latest device health per driver (upstream healthInfoCache). A device whose driver has not
 * refreshed it within its health-check timeout counts as {@code Unknown}: a driver that stops
 * reporting must not leave devices looking healthy. Thread-safe.
 *
 * <p>With a state file (upstream's {@value #STATE_FILE} in the kubelet's DRA state directory), the
 * cache is loaded from it at start and written back whenever a report changed something or a
 * driver's stream ended, so a restarted kubelet reports the health it knew instead of Unknown until
 * the drivers report again (and the timeout still applies to what was loaded). As upstream: the
 * file is JSON ({@link HealthStateCodec}), written to a temporary file and renamed; a file that
 * cannot be read is logged and the cache starts empty; a failed write is logged and does not fail
 * the update.
 */
public final class HealthInfoCache {
  /** Upstream DefaultHealthTimeout: used when the driver gives no positive timeout. */
  public static final Duration DEFAULT_HEALTH_TIMEOUT = Duration.ofSeconds(30);

  /** Upstream v1.ResourceHealthMessageMaxLength. */
  public static final int MESSAGE_MAX_LENGTH = 1024;

  /** Upstream's health state file name, next to {@code dra_manager_state}. */
  public static final String STATE_FILE = "dra_health_state";

  private final Clock clock;
  private final Path stateFile;
  private final Logger logger;

  /** Driver to "pool/device" to health, as the raw reports left it (sorted for a stable file). */
  private final Map<String, Map<String, DeviceHealth>> byDriver;

  /** An in-memory cache (upstream's empty state file name). */
  public HealthInfoCache(Clock clock) {
    this(clock, null, Logger.discard());
  }

  /** A cache persisted in {@code stateFile} (null: in memory only), loaded from it now. */
  public HealthInfoCache(Clock clock, Path stateFile, Logger logger) {
    this.clock = clock;
    this.stateFile = stateFile;
    this.logger = logger.withName("dra-healthinfo");
    this.byDriver = load();
  }

  /**
   * Health of a device: Unknown (without a message) when never reported or not refreshed within its
   * timeout.
   */
  public synchronized DeviceHealth get(String driver, String pool, String device) {
    DeviceHealth h = byDriver.getOrDefault(driver, Map.of()).get(pool + "/" + device);
    if (h == null) {
      return new DeviceHealth(pool, device, DeviceHealth.UNKNOWN, null, DEFAULT_HEALTH_TIMEOUT, "");
    }
    return effective(h);
  }

  /** A stored report as it counts now: Unknown without a message once its timeout passed. */
  private DeviceHealth effective(DeviceHealth h) {
    if (!stale(h)) {
      return h;
    }
    return new DeviceHealth(
        h.poolName(),
        h.deviceName(),
        DeviceHealth.UNKNOWN,
        h.lastUpdated(),
        h.healthCheckTimeout(),
        "");
  }

  /**
   * Records a full report of {@code driver} (upstream updateHealthInfo) and returns the devices
   * that changed: those reported for the first time or with another health, message or timeout than
   * was in effect, and those the report left out whose health timed out (now stored as Unknown).
   * Each reported device counts as updated now, whatever time the driver sent.
   */
  public synchronized List<DeviceHealth> update(String driver, List<DeviceHealth> devices) {
    List<DeviceHealth> changed = new ArrayList<>();
    Map<String, DeviceHealth> current = byDriver.computeIfAbsent(driver, d -> new TreeMap<>());
    Set<String> reported = new HashSet<>();
    for (DeviceHealth d : devices) {
      DeviceHealth now = reported(d);
      String key = d.poolName() + "/" + d.deviceName();
      reported.add(key);
      DeviceHealth before = current.put(key, now);
      // Against what was in effect: a device that had timed out to Unknown and is reported
      // again changed too (upstream compares the stored report only).
      DeviceHealth seen = before == null ? null : effective(before);
      if (seen == null
          || !seen.health().equals(now.health())
          || !seen.message().equals(now.message())
          || !seen.healthCheckTimeout().equals(now.healthCheckTimeout())) {
        changed.add(now);
      }
    }
    for (var e : current.entrySet()) {
      DeviceHealth d = e.getValue();
      if (!reported.contains(e.getKey()) && !DeviceHealth.UNKNOWN.equals(d.health()) && stale(d)) {
        DeviceHealth unknown =
            new DeviceHealth(
                d.poolName(),
                d.deviceName(),
                DeviceHealth.UNKNOWN,
                clock.now(),
                d.healthCheckTimeout(),
                "");
        e.setValue(unknown);
        changed.add(unknown);
      }
    }
    if (!changed.isEmpty()) {
      save();
    }
    return changed;
  }

  /** Forgets a driver whose health stream ended: its devices become Unknown. */
  public synchronized void clearDriver(String driver) {
    byDriver.remove(driver);
    save();
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

  private boolean stale(DeviceHealth h) {
    return h.lastUpdated() == null
        || clock.since(h.lastUpdated()).compareTo(h.healthCheckTimeout()) > 0;
  }

  /** A report as stored: updated now, default timeout, message cut to size. */
  private DeviceHealth reported(DeviceHealth d) {
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
        clock.now(),
        timeout,
        truncateMessage(d.message()));
  }

  private Map<String, Map<String, DeviceHealth>> load() {
    if (stateFile == null) {
      return new TreeMap<>();
    }
    try {
      return HealthStateCodec.decode(Files.readString(stateFile));
    } catch (NoSuchFileException e) {
      return new TreeMap<>();
    } catch (IOException | IllegalArgumentException e) {
      logger.error(
          e, "Failed to load health checkpoint, proceeding with empty cache", "path", stateFile);
      return new TreeMap<>();
    }
  }

  private void save() {
    if (stateFile == null) {
      return;
    }
    Path tmp = stateFile.resolveSibling(stateFile.getFileName() + ".tmp");
    try {
      Files.writeString(tmp, HealthStateCodec.encode(byDriver));
      Files.move(
          tmp, stateFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      logger.error(
          e,
          "Failed to save health checkpoint after update. Kubelet restart may lose the device"
              + " health information.",
          "path",
          stateFile);
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // Best effort, as upstream's deferred removal.
      }
    }
  }
}
