package io.jdra.exampledriver.controller;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The controller's plugins by name (upstream {@code plugins.go} and {@code pluginRegistry} of
 * {@code main.go}), and the parsing of {@code --enable-plugin} values.
 */
public final class Plugins {
  /** Upstream {@code plugins.BindingConditions}. */
  public static final String BINDING_CONDITIONS = "BindingConditions";

  private static final Map<String, Function<String, Plugin>> REGISTRY =
      new TreeMap<>(Map.of(BINDING_CONDITIONS, BindingConditionsPlugin::new));

  private Plugins() {}

  /** The plugin names, sorted, as upstream lists them in its help text and errors. */
  public static List<String> names() {
    return List.copyOf(REGISTRY.keySet());
  }

  /**
   * Parses {@code --enable-plugin} values as upstream's flag does: each value may be a
   * comma-separated list, blanks are skipped, names are kept in the order given.
   *
   * @throws IllegalArgumentException naming an unknown plugin and the available ones
   */
  public static List<String> parse(List<String> values) {
    List<String> out = new ArrayList<>();
    for (String v : values) {
      for (String name : v.split(",", -1)) {
        name = name.strip();
        if (name.isEmpty()) {
          continue;
        }
        if (!REGISTRY.containsKey(name)) {
          throw new IllegalArgumentException(
              "unknown plugin \"" + name + "\" (available: " + String.join(", ", names()) + ")");
        }
        out.add(name);
      }
    }
    return List.copyOf(out);
  }

  /** New instances of the named plugins for {@code driverName} (names as {@link #parse} gives). */
  public static List<Plugin> create(List<String> names, String driverName) {
    List<Plugin> out = new ArrayList<>(names.size());
    for (String n : parse(names)) {
      out.add(REGISTRY.get(n).apply(driverName));
    }
    return List.copyOf(out);
  }
}
