package io.jdra.kubelet.dra.plugin;

/** Lookup of registered drivers, as the manager needs it. Thread-safe. */
public interface DraPlugins {
  /**
   * The endpoint to call for {@code driverName}: the most recently registered connected one.
   *
   * @throws DriverNotRegisteredException when none is registered
   */
  DraPlugin getPlugin(String driverName) throws DriverNotRegisteredException;
}
