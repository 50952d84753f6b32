package io.jdra.kubeletplugin.cdi;

import java.util.List;
import java.util.Objects;

/**
 * One Container Device Interface spec file: a kind ({@code vendor/class}) and its devices, in the
 * format container runtimes (containerd, CRI-O) read from {@code /etc/cdi} or {@code /var/run/cdi}.
 * Immutable.
 *
 * @param cdiVersion the spec format version; {@link CdiNames#minimumVersion} computes the lowest
 *     one the content needs, as the CDI library does, so older runtimes still read the file
 * @param kind {@code vendor/class}, for example {@code k8s.gpu.example.com/gpu}
 * @param devices the devices, each referenced by runtimes as {@code vendor/class=name}
 * @param containerEdits edits applied whenever any device of this spec is injected
 */
public record CdiSpec(
    String cdiVersion, String kind, List<Device> devices, ContainerEdits containerEdits) {
  public CdiSpec {
    Objects.requireNonNull(kind, "kind");
    devices = List.copyOf(devices);
    containerEdits = containerEdits == null ? ContainerEdits.NONE : containerEdits;
  }

  /** A spec with the lowest version its content needs. */
  public static CdiSpec of(String kind, List<Device> devices) {
    CdiSpec draft = new CdiSpec("", kind, devices, ContainerEdits.NONE);
    return new CdiSpec(CdiNames.minimumVersion(draft), kind, devices, ContainerEdits.NONE);
  }

  /** One device of a spec. */
  public record Device(String name, ContainerEdits containerEdits) {
    public Device {
      Objects.requireNonNull(name, "name");
      containerEdits = containerEdits == null ? ContainerEdits.NONE : containerEdits;
    }
  }

  /**
   * What the runtime changes in a container that gets the device: environment variables ({@code
   * KEY=value}), device nodes and mounts.
   */
  public record ContainerEdits(List<String> env, List<DeviceNode> deviceNodes, List<Mount> mounts) {
    public static final ContainerEdits NONE = new ContainerEdits(List.of(), List.of(), List.of());

    public ContainerEdits {
      env = env == null ? List.of() : List.copyOf(env);
      deviceNodes = deviceNodes == null ? List.of() : List.copyOf(deviceNodes);
      mounts = mounts == null ? List.of() : List.copyOf(mounts);
    }

    public static ContainerEdits env(List<String> env) {
      return new ContainerEdits(env, List.of(), List.of());
    }

    /** This plus {@code other}'s entries appended (as the CDI library's ContainerEdits.Append). */
    public ContainerEdits append(ContainerEdits other) {
      if (other == null) {
        return this;
      }
      return new ContainerEdits(
          concat(env, other.env),
          concat(deviceNodes, other.deviceNodes),
          concat(mounts, other.mounts));
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
      if (b.isEmpty()) {
        return a;
      }
      var all = new java.util.ArrayList<T>(a);
      all.addAll(b);
      return all;
    }
  }

  /** A device node to create in the container; {@code hostPath} empty means same as path. */
  public record DeviceNode(String path, String hostPath) {}

  /** A bind mount; {@code type} empty means the runtime's default. */
  public record Mount(String hostPath, String containerPath, String type, List<String> options) {
    public Mount {
      options = options == null ? List.of() : List.copyOf(options);
    }
  }
}
