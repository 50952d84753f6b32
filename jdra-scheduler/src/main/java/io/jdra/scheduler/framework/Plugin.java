package io.jdra.scheduler.framework;

/**
 * A scheduler plugin (upstream {@code fwk.Plugin}). A plugin implements one or more extension-point
 * interfaces of this package; the framework calls them in the order of the profile. Plugins are
 * shared by all scheduling attempts: per-attempt data goes into {@link CycleState}.
 */
public interface Plugin {
  /** The plugin's upstream name, e.g. {@code NodeResourcesFit}. */
  String name();
}
