package io.jdra.scheduler.framework;

/**
 * Receives plugin durations for upstream's {@code scheduler_plugin_execution_duration_seconds}
 * (labels plugin, extension_point, status). Called from scheduling and binding threads, only for
 * cycles whose {@link CycleState#recordPluginMetrics()} is set.
 */
@FunctionalInterface
public interface PluginMetrics {
  PluginMetrics NONE = (plugin, extensionPoint, status, nanos) -> {};

  void observe(String plugin, String extensionPoint, String status, long nanos);
}
