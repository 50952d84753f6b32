package io.jdra.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jdra.exampledriver.ExampleDriver;
import io.jdra.exampledriver.Flags;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.metrics.MetricsServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jdra example-driver}: the Java twin of dra-example-kubeletplugin, with its flags, defaults
 * and environment variables, against any cluster a kubeconfig reaches.
 */
@Command(
    name = "example-driver",
    mixinStandardHelpOptions = true,
    description = {
      "Run the DRA example driver's kubelet plugin (gpu, cpu or net profile).",
      "Registers with the kubelet through its plugin registry, publishes ResourceSlices and",
      "prepares claims by writing CDI specs. Every flag also reads the environment variable in",
      "brackets, as upstream's dra-example-kubeletplugin."
    })
final class ExampleDriverCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--node-name",
      paramLabel = "NAME",
      defaultValue = "${env:NODE_NAME}",
      description = "The name of the node to be worked on [NODE_NAME]. Required.")
  String nodeName;

  @Option(
      names = "--cdi-root",
      paramLabel = "DIR",
      defaultValue = "${env:CDI_ROOT:-/etc/cdi}",
      description =
          "Absolute path to the directory where CDI files will be generated [CDI_ROOT] (default: ${DEFAULT-VALUE}).")
  Path cdiRoot;

  @Option(
      names = "--num-devices",
      paramLabel = "N",
      defaultValue = "${env:NUM_DEVICES:-8}",
      description =
          "The number of devices to be generated; gpu and net profiles [NUM_DEVICES] (default: ${DEFAULT-VALUE}).")
  int numDevices;

  @Option(
      names = "--kubelet-registrar-directory-path",
      paramLabel = "DIR",
      defaultValue = "${env:KUBELET_REGISTRAR_DIRECTORY_PATH:-/var/lib/kubelet/plugins_registry}",
      description =
          "Absolute path to the directory where kubelet stores plugin registrations [KUBELET_REGISTRAR_DIRECTORY_PATH] (default: ${DEFAULT-VALUE}).")
  Path registrarDir;

  @Option(
      names = "--kubelet-plugins-directory-path",
      paramLabel = "DIR",
      defaultValue = "${env:KUBELET_PLUGINS_DIRECTORY_PATH:-/var/lib/kubelet/plugins}",
      description =
          "Absolute path to the directory where kubelet stores plugin data [KUBELET_PLUGINS_DIRECTORY_PATH] (default: ${DEFAULT-VALUE}).")
  Path pluginsDir;

  @Option(
      names = "--healthcheck-port",
      paramLabel = "PORT",
      defaultValue = "${env:HEALTHCHECK_PORT:--1}",
      description =
          "Port of the gRPC healthcheck service (grpc.health.v1; checks registration and the DRA service); 0: a free port; negative: off [HEALTHCHECK_PORT] (default: ${DEFAULT-VALUE}).")
  int healthcheckPort;

  @Option(
      names = "--metrics-port",
      paramLabel = "PORT",
      defaultValue = "${env:METRICS_PORT:--1}",
      description =
          "Port for Prometheus metrics at /metrics; 0: a free port; negative: off [METRICS_PORT] (default: ${DEFAULT-VALUE}).")
  int metricsPort;

  @Option(
      names = "--device-profile",
      paramLabel = "NAME",
      defaultValue = "${env:DEVICE_PROFILE:-gpu}",
      description =
          "Name of the device profile: gpu, cpu or net [DEVICE_PROFILE] (default: ${DEFAULT-VALUE}).")
  String profile;

  @Option(
      names = "--driver-name",
      paramLabel = "NAME",
      defaultValue = "${env:DRIVER_NAME}",
      description = "Name of the DRA driver; default <profile>.example.com [DRIVER_NAME].")
  String driverName;

  @Option(
      names = "--pod-uid",
      paramLabel = "UID",
      defaultValue = "${env:POD_UID}",
      description = "UID of the pod, for unique socket names during rolling updates [POD_UID].")
  String podUid;

  @Option(
      names = "--gpu-partitions",
      paramLabel = "N",
      defaultValue = "${env:GPU_PARTITIONS:-0}",
      description =
          "Partitions per GPU; > 0 publishes shared counters (DRAPartitionableDevices) [GPU_PARTITIONS] (default: ${DEFAULT-VALUE}).")
  int gpuPartitions;

  @Option(
      names = "--gpu-device-status",
      defaultValue = "${env:GPU_DEVICE_STATUS:-false}",
      fallbackValue = "true",
      arity = "0..1",
      description =
          "Write allocated device attributes (uuid, model, driverVersion) into ResourceClaim status.devices[].data [GPU_DEVICE_STATUS].")
  boolean gpuDeviceStatus;

  @Option(
      names = "--binding-conditions",
      defaultValue = "${env:BINDING_CONDITIONS:-false}",
      fallbackValue = "true",
      arity = "0..1",
      description = "Publish devices with binding conditions [BINDING_CONDITIONS].")
  boolean bindingConditions;

  @Option(
      names = "--gpu-allow-multiple-allocations",
      defaultValue = "${env:GPU_ALLOW_MULTIPLE_ALLOCATIONS:-false}",
      fallbackValue = "true",
      arity = "0..1",
      description =
          "Allow GPUs to be allocated to several requests (consumable capacity) [GPU_ALLOW_MULTIPLE_ALLOCATIONS].")
  boolean gpuAllowMultipleAllocations;

  @Option(
      names = "--cpu-numa-nodes",
      paramLabel = "N",
      defaultValue = "${env:CPU_NUMA_NODES:-8}",
      description =
          "Fake NUMA-node devices; cpu profile [CPU_NUMA_NODES] (default: ${DEFAULT-VALUE}).")
  int cpuNumaNodes;

  @Option(
      names = "--cpus-per-numa-node",
      paramLabel = "N",
      defaultValue = "${env:CPUS_PER_NUMA_NODE:-4}",
      description =
          "CPUs per NUMA-node device; cpu profile [CPUS_PER_NUMA_NODE] (default: ${DEFAULT-VALUE}).")
  int cpusPerNumaNode;

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      defaultValue = "${env:KUBECONFIG}",
      description = "Kubeconfig file; otherwise in-cluster config or ~/.kube/config [KUBECONFIG].")
  Path kubeconfig;

  @Option(
      names = "--kube-api-qps",
      paramLabel = "QPS",
      defaultValue = "${env:KUBE_API_QPS:-5}",
      description =
          "QPS to use while communicating with the API server [KUBE_API_QPS] (default: ${DEFAULT-VALUE}). Accepted for compatibility; the fabric8 client has no client-side rate limiter.")
  float qps;

  @Option(
      names = "--kube-api-burst",
      paramLabel = "N",
      defaultValue = "${env:KUBE_API_BURST:-10}",
      description =
          "Burst to use while communicating with the API server [KUBE_API_BURST] (default: ${DEFAULT-VALUE}). Accepted for compatibility, see --kube-api-qps.")
  int burst;

  /**
   * Upstream driver flags as {@code jdra example-driver} reads them (the environment variables of
   * flags not given included), for {@code jdra up}'s {@code --driver-flags}.
   *
   * @throws IllegalArgumentException with picocli's or the driver's message for a bad flag
   */
  static Flags parseFlags(List<String> args) {
    ExampleDriverCommand c = new ExampleDriverCommand();
    try {
      new CommandLine(c).parseArgs(args.toArray(String[]::new));
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return c.flags();
  }

  private Flags flags() {
    return new Flags(
        nodeName,
        cdiRoot,
        numDevices,
        registrarDir,
        pluginsDir,
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

  @Override
  public Integer call() throws Exception {
    Flags flags;
    try {
      flags = flags();
    } catch (IllegalArgumentException e) {
      throw new UserException(e.getMessage());
    }
    Ctx ctx = Ctx.background("dra-example-kubeletplugin").withCancel();
    PrometheusRegistry registry = new PrometheusRegistry();
    MetricsServer metrics = null;
    if (metricsPort >= 0) {
      try {
        metrics = MetricsServer.start(":" + metricsPort, registry);
      } catch (IOException | IllegalArgumentException e) {
        throw new UserException(
            "start metrics server: listen for metrics server at :"
                + metricsPort
                + ": "
                + e.getMessage(),
            e);
      }
    }
    KubernetesClient client = new KubernetesClientBuilder().withConfig(config()).build();
    ExampleDriver driver;
    try {
      driver = ExampleDriver.start(ctx, flags, client, registry);
    } catch (RuntimeException e) {
      client.close();
      if (metrics != null) {
        metrics.close();
      }
      throw new UserException("start driver: " + e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println("example driver " + flags.driverName() + " serving " + flags.driverPluginPath());
    if (metrics != null) {
      out.println("metrics at http://localhost:" + metrics.port() + "/metrics");
    }
    if (driver.healthcheckPort() >= 0) {
      out.println("healthcheck service (grpc.health.v1) on port " + driver.healthcheckPort());
    }
    out.flush();
    Runtime.getRuntime().addShutdownHook(new Thread(ctx::cancel));
    ctx.done().join();
    driver.stop();
    if (metrics != null) {
      metrics.close();
    }
    client.close();
    return 0;
  }

  private Config config() throws IOException {
    Config c;
    if (kubeconfig != null) {
      if (!Files.isReadable(kubeconfig)) {
        throw new UserException("--kubeconfig " + kubeconfig + ": not a readable file");
      }
      c = Config.fromKubeconfig(Files.readString(kubeconfig));
    } else {
      c = Config.autoConfigure(null);
    }
    return c;
  }
}
