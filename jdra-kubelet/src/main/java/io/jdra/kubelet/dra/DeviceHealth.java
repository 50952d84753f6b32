package io.jdra.kubelet.dra;

import java.time.Duration;
import java.time.Instant;

/**
 * One device's health as its driver last reported it over NodeWatchResources (upstream
 * state.DeviceHealth). {@code health} is {@code Healthy}, {@code Unhealthy} or {@code Unknown}, the
 * values of the Pod API's ResourceHealthStatus.
 */
public record DeviceHealth(
    String poolName,
    String deviceName,
    String health,
    Instant lastUpdated,
    Duration healthCheckTimeout,
    String message) {
  public static final String HEALTHY = "Healthy";
  public static final String UNHEALTHY = "Unhealthy";
  public static final String UNKNOWN = "Unknown";
}
