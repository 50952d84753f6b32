package io.jdra.kubelet.dra.state;

import java.util.List;
import java.util.Objects;

/**
 * How a DRA driver described one prepared device of a claim to the kubelet (upstream state.Device).
 * Request names and CDI device IDs are optional; {@code shareId} is null unless the device is
 * shared (consumable capacity).
 */
public record Device(
    String poolName,
    String deviceName,
    String shareId,
    List<String> requestNames,
    List<String> cdiDeviceIds) {
  public Device {
    Objects.requireNonNull(poolName, "poolName");
    Objects.requireNonNull(deviceName, "deviceName");
    requestNames = requestNames == null ? List.of() : List.copyOf(requestNames);
    cdiDeviceIds = cdiDeviceIds == null ? List.of() : List.copyOf(cdiDeviceIds);
  }
}
