package io.jdra.kubeletplugin.resourceslice;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import java.util.List;

/**
 * The content of one ResourceSlice (upstream resourceslice.Slice). The lists are copied; the
 * fabric8 objects in them must not be changed after they are handed over.
 *
 * @param devices the devices, in preference order
 * @param sharedCounters counter sets (partitionable devices)
 * @param perDeviceNodeSelection set for slices whose devices each say which nodes reach them
 */
public record Slice(
    List<Device> devices, List<CounterSet> sharedCounters, Boolean perDeviceNodeSelection) {
  public Slice {
    devices = devices == null ? List.of() : List.copyOf(devices);
    sharedCounters = sharedCounters == null ? List.of() : List.copyOf(sharedCounters);
  }

  public static Slice of(List<Device> devices) {
    return new Slice(devices, List.of(), null);
  }

  public static Slice counters(List<CounterSet> sharedCounters) {
    return new Slice(List.of(), sharedCounters, null);
  }
}
