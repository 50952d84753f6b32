package io.jdra.exampledriver.profiles;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.jdra.kubeletplugin.cdi.CdiSpec.ContainerEdits;
import io.jdra.kubeletplugin.resourceslice.DriverResources;
import java.util.List;
import java.util.Map;

/**
 * A kind of device the example driver simulates (upstream internal/profiles.Profile): which devices
 * exist, which opaque configuration it accepts, and what a configuration does to containers.
 */
public interface Profile {
  /** The profile name, also the CDI class and the driver name prefix ({@code gpu}, ...). */
  String name();

  /** The devices of this node, as pools of slices. Deterministic per node name. */
  DriverResources enumerateDevices();

  /**
   * Decodes one opaque configuration ({@code parameters} of a claim or class config for this
   * driver) into the profile's config object.
   *
   * @throws IllegalArgumentException when the config is not one of this profile's kinds or is
   *     malformed; the message says what is wrong
   */
  Object decodeConfig(Map<String, Object> parameters);

  /**
   * The container edits per CDI device ID ({@link #cdiDeviceId}) for devices prepared with {@code
   * config} (null: the profile's default). Validates the config first.
   *
   * @throws IllegalArgumentException for an invalid config
   */
  Map<String, ContainerEdits> applyConfig(
      Object config, List<DeviceRequestAllocationResult> results);

  /**
   * The per-claim ID of an allocated device: its name, plus the share ID for one of several
   * allocations of a device that allows them (upstream helpers.GetCDIDeviceID).
   */
  static String cdiDeviceId(String device, String shareId) {
    return shareId == null ? device : device + "-" + shareId;
  }
}
