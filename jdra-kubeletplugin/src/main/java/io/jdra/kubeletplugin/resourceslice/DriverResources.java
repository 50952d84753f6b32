package io.jdra.kubeletplugin.resourceslice;

import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a driver wants published, by pool name (upstream resourceslice.DriverResources).
 * Immutable; an empty map means "no pools" and removes all slices the controller manages.
 */
public record DriverResources(Map<String, Pool> pools) {
  public DriverResources {
    pools = pools == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(pools));
  }

  /** One pool named after the node, the usual shape for node-local devices. */
  public static DriverResources ofNodePool(String nodeName, Pool pool) {
    return new DriverResources(Map.of(nodeName, pool));
  }
}
