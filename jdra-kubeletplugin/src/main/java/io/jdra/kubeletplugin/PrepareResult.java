package io.jdra.kubeletplugin;

import java.util.List;

/**
 * The outcome of preparing one claim: either its devices or an error. Immutable.
 *
 * @param devices the prepared devices of this driver in the claim (empty on error)
 * @param error why preparing failed, or null
 */
public record PrepareResult(List<Device> devices, Throwable error) {
  public PrepareResult {
    devices = devices == null ? List.of() : List.copyOf(devices);
  }

  public static PrepareResult ok(List<Device> devices) {
    return new PrepareResult(devices, null);
  }

  public static PrepareResult failed(Throwable error) {
    return new PrepareResult(List.of(), error);
  }
}
