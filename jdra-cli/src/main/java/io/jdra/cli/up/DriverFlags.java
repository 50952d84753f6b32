package io.jdra.cli.up;

import io.jdra.exampledriver.Flags;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Routes {@code jdra up --driver-flags} to the example drivers as the demos' Helm values do: flags
 * of one profile ({@code --gpu-*}, {@code --cpu-*}) go to that profile's drivers only, the others
 * to every driver. Flags that say where a driver runs are {@code jdra up}'s to set.
 */
public final class DriverFlags {
  /** Parses upstream dra-example-driver flags, as {@code jdra example-driver} does. */
  @FunctionalInterface
  public interface Parser {
    /**
     * @throws IllegalArgumentException for an unknown flag or a bad value
     */
    Flags parse(List<String> args);
  }

  private static final List<String> SET_BY_UP =
      List.of(
          "--node-name",
          "--cdi-root",
          "--kubelet-registrar-directory-path",
          "--kubelet-plugins-directory-path",
          "--device-profile",
          "--driver-name",
          "--kubeconfig",
          "--pod-uid");

  /** Ports: one per driver process upstream; in jdra up every driver would want the same one. */
  private static final List<String> PORTS = List.of("--healthcheck-port", "--metrics-port");

  private DriverFlags() {}

  /**
   * The flags of the driver of {@code profile} on the node whose root is {@code nodeRoot}.
   *
   * @throws IllegalArgumentException for a flag {@code jdra up} sets itself, or a bad flag
   */
  public static Flags forDriver(
      Parser parser, UpOptions o, String profile, String node, Path nodeRoot) {
    List<String> args = new ArrayList<>();
    args.add("--node-name=" + node);
    args.add("--device-profile=" + profile);
    args.add("--cdi-root=" + nodeRoot.resolve("cdi"));
    args.add("--kubelet-registrar-directory-path=" + nodeRoot.resolve("plugins_registry"));
    args.add("--kubelet-plugins-directory-path=" + nodeRoot.resolve("plugins"));
    args.add("--num-devices=" + o.numDevices());
    args.addAll(forProfile(o.driverFlags(), profile));
    return parser.parse(args);
  }

  /** The user's flags that belong to {@code profile}'s drivers. */
  static List<String> forProfile(List<String> flags, String profile) {
    List<String> out = new ArrayList<>();
    for (String f : flags) {
      String name = f.contains("=") ? f.substring(0, f.indexOf('=')) : f;
      if (SET_BY_UP.contains(name)) {
        throw new IllegalArgumentException(
            "--driver-flags: "
                + name
                + " is set by jdra up for each node and driver; leave it out");
      }
      if (PORTS.contains(name)) {
        throw new IllegalArgumentException(
            "--driver-flags: "
                + name
                + " would give every driver the same port; jdra up serves the drivers' metrics"
                + " on --metrics-bind-address and has no healthcheck ports; leave it out");
      }
      String owner = ownerProfile(name);
      if (owner == null || owner.equals(profile)) {
        out.add(f);
      }
    }
    return out;
  }

  private static String ownerProfile(String flag) {
    for (String p : UpOptions.KNOWN_PROFILES) {
      if (flag.startsWith("--" + p + "-")) {
        return p;
      }
    }
    return null;
  }
}
