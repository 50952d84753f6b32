package io.jdra.kubelet.dra.plugin;

import io.jdra.kubelet.dra.state.Device;
import java.util.List;

/**
 * A driver's answer for one claim of NodePrepareResources: the prepared devices, or a non-empty
 * {@code error} when preparing this claim failed.
 */
public record PrepareResult(List<Device> devices, String error) {
  public PrepareResult {
    devices = devices == null ? List.of() : List.copyOf(devices);
    error = error == null ? "" : error;
  }

  public static PrepareResult failed(String error) {
    return new PrepareResult(List.of(), error);
  }
}
