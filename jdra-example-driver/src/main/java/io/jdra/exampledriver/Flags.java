package io.jdra.exampledriver;

import io.jdra.exampledriver.profiles.Profile;
import io.jdra.exampledriver.profiles.Profiles;
import java.nio.file.Path;

/**
 * The example driver's settings, named as upstream dra-example-kubeletplugin's flags (the
 * environment variable of each flag in brackets; {@code jdra example-driver} parses both).
 *
 * @param nodeName {@code --node-name} [NODE_NAME], required
 * @param cdiRoot {@code --cdi-root} [CDI_ROOT], default {@code /etc/cdi}
 * @param numDevices {@code --num-devices} [NUM_DEVICES], default 8 (gpu and net profiles)
 * @param kubeletRegistrarDirectoryPath {@code --kubelet-registrar-directory-path}
 *     [KUBELET_REGISTRAR_DIRECTORY_PATH], default {@code /var/lib/kubelet/plugins_registry}
 * @param kubeletPluginsDirectoryPath {@code --kubelet-plugins-directory-path}
 *     [KUBELET_PLUGINS_DIRECTORY_PATH], default {@code /var/lib/kubelet/plugins}
 * @param healthcheckPort {@code --healthcheck-port} [HEALTHCHECK_PORT], default -1 (off)
 * @param metricsPort {@code --metrics-port} [METRICS_PORT], default -1 (off)
 * @param profile {@code --device-profile} [DEVICE_PROFILE]: gpu (default), cpu or net
 * @param driverName {@code --driver-name} [DRIVER_NAME], default {@code <profile>.example.com}
 * @param podUid {@code --pod-uid} [POD_UID], for rolling updates (unique socket names)
 * @param gpuPartitions {@code --gpu-partitions} [GPU_PARTITIONS], default 0
 * @param gpuDeviceStatus {@code --gpu-device-status} [GPU_DEVICE_STATUS], default false
 * @param bindingConditions {@code --binding-conditions} [BINDING_CONDITIONS], default false
 * @param gpuAllowMultipleAllocations {@code --gpu-allow-multiple-allocations}
 *     [GPU_ALLOW_MULTIPLE_ALLOCATIONS], default false
 * @param cpuNumaNodes {@code --cpu-numa-nodes} [CPU_NUMA_NODES], default 8
 * @param cpusPerNumaNode {@code --cpus-per-numa-node} [CPUS_PER_NUMA_NODE], default 4
 */
public record Flags(
    String nodeName,
    Path cdiRoot,
    int numDevices,
    Path kubeletRegistrarDirectoryPath,
    Path kubeletPluginsDirectoryPath,
    int healthcheckPort,
    int metricsPort,
    String profile,
    String driverName,
    String podUid,
    int gpuPartitions,
    boolean gpuDeviceStatus,
    boolean bindingConditions,
    boolean gpuAllowMultipleAllocations,
    int cpuNumaNodes,
    int cpusPerNumaNode) {

  /** Checks what upstream checks at start-up and fills the derived default of the driver name. */
  public Flags {
    if (nodeName == null || nodeName.isEmpty()) {
      throw new IllegalArgumentException("Required flag \"node-name\" not set");
    }
    if (!Profiles.NAMES.contains(profile)) {
      throw new IllegalArgumentException(
          "invalid device profile \"" + profile + "\", valid profiles are " + Profiles.NAMES);
    }
    if (driverName == null || driverName.isEmpty()) {
      driverName = profile + ".example.com";
    }
    if (podUid != null && podUid.isEmpty()) {
      podUid = null;
    }
  }

  /** Upstream's defaults for everything but the node name. */
  public static Flags defaults(String nodeName) {
    return new Flags(
        nodeName,
        Path.of("/etc/cdi"),
        8,
        Path.of("/var/lib/kubelet/plugins_registry"),
        Path.of("/var/lib/kubelet/plugins"),
        -1,
        -1,
        "gpu",
        null,
        null,
        0,
        false,
        false,
        false,
        8,
        4);
  }

  /** {@code <plugins dir>/<driver>}: the DRA socket, the checkpoint and the health file. */
  public Path driverPluginPath() {
    return kubeletPluginsDirectoryPath.resolve(driverName);
  }

  /** The configured profile. */
  public Profile newProfile() {
    return Profiles.create(
        profile,
        nodeName,
        driverName,
        numDevices,
        gpuPartitions,
        bindingConditions,
        gpuAllowMultipleAllocations,
        cpuNumaNodes,
        cpusPerNumaNode);
  }

  public Flags withDirs(Path cdi, Path registrar, Path plugins) {
    return new Flags(
        nodeName,
        cdi,
        numDevices,
        registrar,
        plugins,
        healthcheckPort,
        metricsPort,
        profile,
        driverName,
        podUid,
        gpuPartitions,
        gpuDeviceStatus,
        bindingConditions,
        gpuAllowMultipleAllocations,
        cpuNumaNodes,
        cpusPerNumaNode);
  }

  public Flags withProfile(String newProfile, String newDriverName) {
    return new Flags(
        nodeName,
        cdiRoot,
        numDevices,
        kubeletRegistrarDirectoryPath,
        kubeletPluginsDirectoryPath,
        healthcheckPort,
        metricsPort,
        newProfile,
        newDriverName,
        podUid,
        gpuPartitions,
        gpuDeviceStatus,
        bindingConditions,
        gpuAllowMultipleAllocations,
        cpuNumaNodes,
        cpusPerNumaNode);
  }
}
