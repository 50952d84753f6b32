package io.jdra.kubeletplugin;

import java.util.List;

/**
 * Implemented by a {@link DraPlugin} that reports device health. Then the SDK serves the kubelet's
 * {@code v1alpha1.DRAResourceHealth} service (and announces it at registration): each stream gets
 * the full list at once and again after every change.
 */
public interface DeviceHealthSource {
  /** The health of every device of the driver right now. */
  List<DeviceHealth> deviceHealth();

  /**
   * Calls {@code onChange} (from any thread, without locks held) whenever {@link #deviceHealth()}
   * may have changed, until the returned handle is closed.
   */
  AutoCloseable watchDeviceHealth(Runnable onChange);
}
