package io.jdra.kubelet.dra.state;

import java.util.List;

/** The devices one driver prepared for a claim (upstream state.DriverState). */
public record DriverState(List<Device> devices) {
  public static final DriverState EMPTY = new DriverState(List.of());

  public DriverState {
    devices = devices == null ? List.of() : List.copyOf(devices);
  }

  /** A copy with {@code device} appended. */
  public DriverState with(Device device) {
    var all = new java.util.ArrayList<>(devices);
    all.add(device);
    return new DriverState(all);
  }
}
