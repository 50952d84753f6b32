package io.jdra.kubeletplugin;

import java.time.Instant;

/**
 * The health of one device, streamed to the kubelet by the DRAResourceHealth service. Immutable.
 *
 * @param poolName the device's pool
 * @param deviceName the device's name
 * @param status the health
 * @param lastUpdated when the driver last checked the device
 * @param healthCheckTimeoutSeconds after how long without an update the kubelet considers the
 *     health unknown; zero for the kubelet's default
 * @param message optional detail (the kubelet keeps at most 1024 characters)
 */
public record DeviceHealth(
    String poolName,
    String deviceName,
    Status status,
    Instant lastUpdated,
    long healthCheckTimeoutSeconds,
    String message) {
  /** The kubelet's health states. */
  public enum Status {
    UNKNOWN,
    HEALTHY,
    UNHEALTHY
  }

  public DeviceHealth {
    message = message == null ? "" : message;
  }
}
