package io.jdra.kubeletplugin;

import java.util.List;
import java.util.Objects;

/**
 * One prepared device of a claim, as the kubelet receives it. Immutable.
 *
 * @param requests the claim's request names the device was allocated for; subrequest suffixes
 *     ({@code request/subrequest}) are stripped before they reach the kubelet
 * @param poolName the device's pool
 * @param deviceName the device's name within the pool
 * @param cdiDeviceIds fully qualified CDI device IDs ({@code vendor/class=name}) that the container
 *     runtime injects; may be empty
 * @param shareId the allocation's share ID for devices that allow multiple allocations, or null
 */
public record Device(
    List<String> requests,
    String poolName,
    String deviceName,
    List<String> cdiDeviceIds,
    String shareId) {
  public Device {
    requests = List.copyOf(requests);
    Objects.requireNonNull(poolName, "poolName");
    Objects.requireNonNull(deviceName, "deviceName");
    cdiDeviceIds = cdiDeviceIds == null ? List.of() : List.copyOf(cdiDeviceIds);
  }
}
