package io.jdra.kubeletplugin;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Settings for {@link KubeletPlugin#start}, named as upstream's functional options (DriverName,
 * NodeName, RegistrarDirectoryPath, PluginDataDirectoryPath, RollingUpdate, Serialize, NodeV1,
 * NodeV1beta1, ...). Built with {@link #builder(String)}; immutable; validated in {@link
 * Builder#build()}.
 *
 * @param driverName the DRA driver name (required), a DNS subdomain such as {@code gpu.example.com}
 * @param kubeClient used to read claims and publish ResourceSlices (required unless neither the DRA
 *     service nor publishing is used)
 * @param nodeName the node this plugin runs on; needed to publish node-local ResourceSlices
 * @param nodeUid the Node's UID for slice owner references; looked up when null
 * @param registrarDirectoryPath where the kubelet looks for registration sockets
 * @param registrarSocketFilename the registration socket's file name; derived from driver name and
 *     rolling-update UID when null
 * @param pluginDataDirectoryPath the directory of the DRA socket and the driver's own files
 * @param pluginSocket the DRA socket's file name; {@code dra.sock} (or {@code dra-<uid>.sock})
 * @param rollingUpdateUid the pod UID when two driver instances may run side by side during an
 *     update: socket names become unique and serialization uses a file lock shared by both
 * @param serialize one prepare/unprepare at a time (default on, as upstream)
 * @param flockDirectoryPath where the rolling-update lock file lives (default: plugin data dir)
 * @param nodeV1 serve {@code v1.DRAPlugin}
 * @param nodeV1beta1 serve {@code v1beta1.DRAPlugin}
 * @param registrationService serve the registration socket (off when something else registers)
 * @param draService serve the DRA socket
 * @param healthService serve {@code v1alpha1.DRAResourceHealth} when the plugin implements {@link
 *     DeviceHealthSource}
 * @param grpcExecutor where gRPC calls run; null for gRPC's shared executor (cheap with many
 *     plugins in one JVM)
 * @param grpcVerbosity the log verbosity at which each request and response is logged (upstream
 *     default 6: they can be large)
 * @param sliceSyncDelay ResourceSlice controller sync delay after informer events (null: default)
 * @param sliceMutationCacheTtl ResourceSlice controller mutation cache TTL (null: default)
 */
public record Options(
    String driverName,
    KubernetesClient kubeClient,
    String nodeName,
    String nodeUid,
    Path registrarDirectoryPath,
    String registrarSocketFilename,
    Path pluginDataDirectoryPath,
    String pluginSocket,
    String rollingUpdateUid,
    boolean serialize,
    Path flockDirectoryPath,
    boolean nodeV1,
    boolean nodeV1beta1,
    boolean registrationService,
    boolean draService,
    boolean healthService,
    Executor grpcExecutor,
    int grpcVerbosity,
    Duration sliceSyncDelay,
    Duration sliceMutationCacheTtl) {

  /** Where the kubelet keeps plugin data directories (upstream KubeletPluginsDir). */
  public static final Path KUBELET_PLUGINS_DIR = Path.of("/var/lib/kubelet/plugins");

  /** Where the kubelet watches for registration sockets (upstream KubeletRegistryDir). */
  public static final Path KUBELET_REGISTRY_DIR = Path.of("/var/lib/kubelet/plugins_registry");

  public static Builder builder(String driverName) {
    return new Builder(driverName);
  }

  public Builder toBuilder() {
    Builder b = new Builder(driverName);
    b.kubeClient = kubeClient;
    b.nodeName = nodeName;
    b.nodeUid = nodeUid;
    b.registrarDirectoryPath = registrarDirectoryPath;
    b.registrarSocketFilename = registrarSocketFilename;
    b.pluginDataDirectoryPath = pluginDataDirectoryPath;
    b.pluginSocket = pluginSocket;
    b.rollingUpdateUid = rollingUpdateUid;
    b.serialize = serialize;
    b.flockDirectoryPath = flockDirectoryPath;
    b.nodeV1 = nodeV1;
    b.nodeV1beta1 = nodeV1beta1;
    b.registrationService = registrationService;
    b.draService = draService;
    b.healthService = healthService;
    b.grpcExecutor = grpcExecutor;
    b.grpcVerbosity = grpcVerbosity;
    b.sliceSyncDelay = sliceSyncDelay;
    b.sliceMutationCacheTtl = sliceMutationCacheTtl;
    return b;
  }

  /** The registration socket's path. */
  public Path registrarSocketPath() {
    return registrarDirectoryPath.resolve(registrarSocketFilename);
  }

  /** The DRA service socket's path. */
  public Path pluginSocketPath() {
    return pluginDataDirectoryPath.resolve(pluginSocket);
  }

  /** Mutable builder; {@link #build()} applies upstream's defaults and checks combinations. */
  public static final class Builder {
    private final String driverName;
    private KubernetesClient kubeClient;
    private String nodeName;
    private String nodeUid;
    private Path registrarDirectoryPath = KUBELET_REGISTRY_DIR;
    private String registrarSocketFilename;
    private Path pluginDataDirectoryPath;
    private String pluginSocket;
    private String rollingUpdateUid;
    private boolean serialize = true;
    private Path flockDirectoryPath;
    private boolean nodeV1 = true;
    private boolean nodeV1beta1 = true;
    private boolean registrationService = true;
    private boolean draService = true;
    private boolean healthService = true;
    private Executor grpcExecutor;
    private int grpcVerbosity = 6;
    private Duration sliceSyncDelay;
    private Duration sliceMutationCacheTtl;

    private Builder(String driverName) {
      this.driverName = driverName;
    }

    public Builder kubeClient(KubernetesClient v) {
      kubeClient = v;
      return this;
    }

    public Builder nodeName(String v) {
      nodeName = v;
      return this;
    }

    public Builder nodeUid(String v) {
      nodeUid = v;
      return this;
    }

    public Builder registrarDirectoryPath(Path v) {
      registrarDirectoryPath = v;
      return this;
    }

    public Builder registrarSocketFilename(String v) {
      registrarSocketFilename = v;
      return this;
    }

    public Builder pluginDataDirectoryPath(Path v) {
      pluginDataDirectoryPath = v;
      return this;
    }

    public Builder pluginSocket(String v) {
      pluginSocket = v;
      return this;
    }

    public Builder rollingUpdate(String podUid) {
      rollingUpdateUid = podUid;
      return this;
    }

    public Builder serialize(boolean v) {
      serialize = v;
      return this;
    }

    public Builder flockDirectoryPath(Path v) {
      flockDirectoryPath = v;
      return this;
    }

    public Builder nodeV1(boolean v) {
      nodeV1 = v;
      return this;
    }

    public Builder nodeV1beta1(boolean v) {
      nodeV1beta1 = v;
      return this;
    }

    public Builder registrationService(boolean v) {
      registrationService = v;
      return this;
    }

    public Builder draService(boolean v) {
      draService = v;
      return this;
    }

    public Builder healthService(boolean v) {
      healthService = v;
      return this;
    }

    public Builder grpcExecutor(Executor v) {
      grpcExecutor = v;
      return this;
    }

    public Builder grpcVerbosity(int v) {
      grpcVerbosity = v;
      return this;
    }

    public Builder sliceSyncDelay(Duration v) {
      sliceSyncDelay = v;
      return this;
    }

    public Builder sliceMutationCacheTtl(Duration v) {
      sliceMutationCacheTtl = v;
      return this;
    }

    /**
     * @throws IllegalArgumentException for a missing driver name or conflicting options
     */
    public Options build() {
      if (driverName == null || driverName.isEmpty()) {
        throw new IllegalArgumentException("driver name must be set");
      }
      boolean rolling = rollingUpdateUid != null && !rollingUpdateUid.isEmpty();
      if (rolling && registrarSocketFilename != null) {
        throw new IllegalArgumentException(
            "rolling updates and explicit registration socket filename are mutually exclusive");
      }
      if (!nodeV1 && !nodeV1beta1) {
        throw new IllegalArgumentException(
            "no supported DRA gRPC API is enabled (nodeV1, nodeV1beta1)");
      }
      String regFile = registrarSocketFilename;
      if (regFile == null) {
        regFile =
            rolling
                ? SocketNames.rollingUpdateRegistrarSocketFile(
                    registrarDirectoryPath, driverName, rollingUpdateUid)
                : driverName + "-reg.sock";
      }
      Path dataDir =
          pluginDataDirectoryPath != null
              ? pluginDataDirectoryPath
              : KUBELET_PLUGINS_DIR.resolve(driverName);
      // "dra" is fixed; the directory is per driver, so the path is unique without the UID.
      String sock =
          pluginSocket != null
              ? pluginSocket
              : "dra" + (rolling ? "-" + rollingUpdateUid : "") + ".sock";
      return new Options(
          driverName,
          kubeClient,
          nodeName,
          nodeUid,
          Objects.requireNonNull(registrarDirectoryPath, "registrarDirectoryPath"),
          regFile,
          dataDir,
          sock,
          rolling ? rollingUpdateUid : null,
          serialize,
          flockDirectoryPath,
          nodeV1,
          nodeV1beta1,
          registrationService,
          draService,
          healthService,
          grpcExecutor,
          grpcVerbosity,
          sliceSyncDelay,
          sliceMutationCacheTtl);
    }
  }
}
