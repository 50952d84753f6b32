package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.api.names.DeviceId;

/** A candidate device in search order, with what the search keeps asking about it. */
final class Dev {
  final int index;
  final DeviceId id;
  final Device device;
  final ResourceSlice slice;
  final PoolInfo pool;

  /** Allocated exclusively before this allocation (upstream {@code AllocatedDevices.Has}). */
  final boolean allocated;

  /** Allocated in any way (exclusive, share or consumed capacity). */
  final boolean inUseAtAll;

  final boolean allowMultipleAllocations;
  private Object view;

  Dev(
      int index,
      DeviceId id,
      Device device,
      ResourceSlice slice,
      PoolInfo pool,
      boolean allocated,
      boolean inUseAtAll) {
    this.index = index;
    this.id = id;
    this.device = device;
    this.slice = slice;
    this.pool = pool;
    this.allocated = allocated;
    this.inUseAtAll = inUseAtAll;
    this.allowMultipleAllocations = Boolean.TRUE.equals(device.getAllowMultipleAllocations());
  }

  Object view(SelectorEngine engine) {
    if (view == null) {
      view = engine.view(id.driver(), device);
    }
    return view;
  }

  boolean perDeviceNodeSelection() {
    return Boolean.TRUE.equals(slice.getSpec().getPerDeviceNodeSelection());
  }

  @Override
  public String toString() {
    return id.toString();
  }
}
