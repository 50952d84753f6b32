package io.jdra.kubelet.pluginmanager;

import java.time.Duration;
import java.util.List;

/**
 * What the plugin watcher calls for plugins of one type (upstream cache.PluginHandler). The watcher
 * calls these from one thread per kubelet, in the order sockets appear and disappear.
 */
public interface PluginHandler {
  /**
   * Checks a plugin before registration; the exception message is sent back to the plugin in
   * NotifyRegistrationStatus.
   */
  void validatePlugin(String pluginName, String endpoint, List<String> supportedVersions)
      throws Exception;

  /**
   * Registers a validated plugin; {@code timeout} is null for the handler's default per-call
   * timeout.
   */
  void registerPlugin(
      String pluginName, String endpoint, List<String> supportedVersions, Duration timeout)
      throws Exception;

  /** The plugin's registration socket was removed. */
  void deRegisterPlugin(String pluginName, String endpoint);
}
