package io.jdra.cli.up;

import io.jdra.api.features.FeatureGates;
import io.jdra.exampledriver.controller.Plugins;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What {@code jdra up} starts. Validated at construction with messages that say what to change.
 *
 * @param nodes simulated nodes {@code node-1} .. {@code node-N}
 * @param dataDir where objects, the kubeconfig and each node's root directory live
 * @param port the API server's HTTPS port (0 for a free one)
 * @param profiles device profiles of the example driver, one driver per profile on every node
 * @param numDevices devices per driver ({@code --num-devices} of dra-example-driver)
 * @param driverFlags further upstream dra-example-driver flags, passed to every driver of the
 *     profile they belong to
 * @param extendedResourceName the DeviceClasses' {@code spec.extendedResourceName}, or empty
 * @param controllerPlugins plugins of dra-example-controller (the chart's {@code
 *     controller.plugins}); when not empty one controller per profile's driver runs them
 * @param featureGates the feature gates of every component
 * @param inMemory keep API objects in memory only (the data dir still holds node state)
 * @param metricsBindAddress host:port where every component's metrics are served together (port 0
 *     for a free one)
 */
public record UpOptions(
    int nodes,
    Path dataDir,
    int port,
    List<String> profiles,
    int numDevices,
    List<String> driverFlags,
    String extendedResourceName,
    List<String> controllerPlugins,
    FeatureGates featureGates,
    boolean inMemory,
    String metricsBindAddress) {
  /** The device profiles dra-example-driver has. */
  public static final List<String> KNOWN_PROFILES = List.of("gpu", "net", "cpu");

  /** Far more than one machine's sockets and threads comfortably carry. */
  public static final int MAX_NODES = 1000;

  public UpOptions {
    Objects.requireNonNull(dataDir, "data dir");
    Objects.requireNonNull(featureGates, "feature gates");
    if (nodes < 1 || nodes > MAX_NODES) {
      throw new IllegalArgumentException(
          "--nodes must be between 1 and " + MAX_NODES + ", got " + nodes);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port must be between 0 and 65535, got " + port);
    }
    if (numDevices < 0) {
      throw new IllegalArgumentException("--num-devices must not be negative, got " + numDevices);
    }
    profiles = List.copyOf(profiles);
    if (profiles.isEmpty()) {
      throw new IllegalArgumentException("--device-profiles must name at least one profile");
    }
    for (String p : profiles) {
      if (!KNOWN_PROFILES.contains(p)) {
        throw new IllegalArgumentException(
            "--device-profiles: unknown profile \"" + p + "\" (known: gpu, net, cpu)");
      }
    }
    if (profiles.stream().distinct().count() != profiles.size()) {
      throw new IllegalArgumentException("--device-profiles names a profile twice: " + profiles);
    }
    driverFlags = List.copyOf(driverFlags);
    extendedResourceName = extendedResourceName == null ? "" : extendedResourceName;
    Objects.requireNonNull(metricsBindAddress, "metrics bind address");
    if (!metricsBindAddress.contains(":")) {
      throw new IllegalArgumentException(
          "--metrics-bind-address must be host:port (port 0 for a free one), got \""
              + metricsBindAddress
              + "\"");
    }
    try {
      controllerPlugins = Plugins.parse(controllerPlugins == null ? List.of() : controllerPlugins);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--controller-plugins: " + e.getMessage(), e);
    }
  }

  /** The name of node {@code i} (1-based), as {@code jdra up} names them. */
  public static String nodeName(int i) {
    return "node-" + i;
  }

  /** The driver name of a profile: {@code <profile>.example.com}, as the upstream chart. */
  public static String driverName(String profile) {
    return profile + ".example.com";
  }

  /** A node's root directory, the counterpart of its {@code /var/lib/kubelet}. */
  public Path nodeRoot(String node) {
    return dataDir.resolve("nodes").resolve(node);
  }
}
