package io.jdra.exampledriver.profiles;

import java.util.List;
import java.util.Map;

/** The profiles by name, and checks shared by their config decoders. */
public final class Profiles {
  /** Valid {@code --device-profile} values. */
  public static final List<String> NAMES =
      List.of(GpuProfile.NAME, CpuProfile.NAME, NetProfile.NAME);

  private Profiles() {}

  /**
   * The profile named {@code name} with the settings that concern it.
   *
   * @throws IllegalArgumentException for an unknown profile name
   */
  public static Profile create(
      String name,
      String nodeName,
      String driverName,
      int numDevices,
      int gpuPartitions,
      boolean bindingConditions,
      boolean gpuAllowMultipleAllocations,
      int cpuNumaNodes,
      int cpusPerNumaNode) {
    return switch (name) {
      case GpuProfile.NAME ->
          new GpuProfile(
              nodeName, numDevices, gpuPartitions, bindingConditions, gpuAllowMultipleAllocations);
      case CpuProfile.NAME -> new CpuProfile(nodeName, driverName, cpuNumaNodes, cpusPerNumaNode);
      case NetProfile.NAME -> new NetProfile(nodeName, numDevices);
      default ->
          throw new IllegalArgumentException(
              "invalid device profile \"" + name + "\", valid profiles are " + NAMES);
    };
  }

  /** Checks {@code apiVersion} and {@code kind} of an opaque config. */
  static void checkKind(Map<String, Object> json, String apiVersion, String kind) {
    Object av = json.get("apiVersion");
    Object k = json.get("kind");
    if (av == null || k == null || "".equals(av) || "".equals(k)) {
      throw new IllegalArgumentException(
          "Object 'Kind' is missing in config (want apiVersion "
              + apiVersion
              + ", kind "
              + kind
              + ")");
    }
    if (!apiVersion.equals(av) || !kind.equals(k)) {
      throw new IllegalArgumentException(
          "no kind \""
              + k
              + "\" is registered for version \""
              + av
              + "\" (want apiVersion "
              + apiVersion
              + ", kind "
              + kind
              + ")");
    }
  }
}
