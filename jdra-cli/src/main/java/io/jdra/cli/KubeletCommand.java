package io.jdra.cli;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.kubelet.Kubelet;
import io.jdra.kubelet.KubeletOptions;
import io.jdra.kubelet.sim.KubeletServer;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.ClientOptions;
import io.jdra.runtime.client.Clients;
import io.jdra.runtime.metrics.MetricsServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jdra kubelet}: one simulated node against any API server. */
@Command(
    name = "kubelet",
    mixinStandardHelpOptions = true,
    description = {
      "Run one simulated node: registers the Node, runs the pods bound to it without a container",
      "runtime, and prepares their ResourceClaims through DRA drivers that register in",
      "ROOT/plugins_registry (any language, upstream gRPC APIs)."
    })
final class KubeletCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description = "kubeconfig of the API server (default: $KUBECONFIG, else in-cluster).")
  Path kubeconfig;

  @Option(names = "--node-name", paramLabel = "N", required = true, description = "Node name.")
  String nodeName;

  @Option(
      names = "--root-dir",
      paramLabel = "DIR",
      required = true,
      description = "Kubelet root (plugins_registry/, plugins/, dra_manager_state).")
  Path rootDir;

  @Option(
      names = "--cdi-root",
      paramLabel = "DIR",
      description = "CDI spec directory containers' devices resolve against (default: DIR/cdi).")
  Path cdiRoot;

  @Option(
      names = "--capacity",
      paramLabel = "R=Q,...",
      defaultValue = "cpu=8,memory=32Gi,pods=110",
      description = "Node capacity and allocatable (default: ${DEFAULT-VALUE}).")
  String capacity;

  @Option(
      names = "--address",
      paramLabel = "IP",
      defaultValue = "127.0.0.1",
      description =
          "Address of the kubelet endpoint (container logs) and the Node's InternalIP (default: ${DEFAULT-VALUE}).")
  String address;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      defaultValue = "10250",
      description =
          "Kubelet endpoint port, plain HTTP, 0 for a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--metrics-bind-address",
      paramLabel = "ADDR",
      description =
          "Serve /metrics, /healthz, /readyz, /livez on host:port (port 0 for a free one); off when not set.")
  String metricsBindAddress;

  @Option(
      names = "--kube-api-qps",
      paramLabel = "QPS",
      defaultValue = "50",
      description = "Client-side QPS limit towards the API server (default: ${DEFAULT-VALUE}).")
  float qps;

  @Option(
      names = "--kube-api-burst",
      paramLabel = "N",
      defaultValue = "100",
      description = "Client-side burst towards the API server (default: ${DEFAULT-VALUE}).")
  int burst;

  @Override
  public Integer call() throws Exception {
    Map<String, Quantity> cap = parseCapacity(capacity);
    KubernetesClient client = client();
    PrometheusRegistry registry = new PrometheusRegistry();
    MetricsServer metrics = null;
    if (metricsBindAddress != null && !metricsBindAddress.isEmpty()) {
      try {
        metrics = MetricsServer.start(metricsBindAddress, registry);
      } catch (IOException | IllegalArgumentException e) {
        client.close();
        throw new UserException(
            "--metrics-bind-address " + metricsBindAddress + ": " + e.getMessage(), e);
      }
    }
    KubeletServer server;
    try {
      server = KubeletServer.start(address, port);
    } catch (IOException e) {
      throw new UserException("listen on " + address + ":" + port + ": " + e.getMessage(), e);
    }
    Ctx ctx = Ctx.background("kubelet");
    KubeletOptions o;
    try {
      o =
          new KubeletOptions(
              client, nodeName, rootDir, cdiRoot, cap, address, server, registry, null, null, 0);
    } catch (IllegalArgumentException e) {
      throw new UserException(e.getMessage());
    }
    Kubelet.Handle kubelet;
    try {
      kubelet = Kubelet.start(ctx, o);
      kubelet.ready().get(60, TimeUnit.SECONDS);
    } catch (IOException | ExecutionException | TimeoutException e) {
      server.close();
      client.close();
      if (metrics != null) {
        metrics.close();
      }
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      throw new UserException("start kubelet: " + cause.getMessage(), cause);
    }
    if (metrics != null) {
      metrics.addReadyzCheck("kubelet", () -> kubelet.ready().isDone() ? null : "starting");
    }
    MetricsServer metricsServer = metrics;
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        "kubelet ready: node "
            + nodeName
            + ", root "
            + rootDir.toAbsolutePath()
            + ", endpoint http://"
            + address
            + ":"
            + server.port());
    out.flush();
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> {
              kubelet.stop();
              server.close();
              client.close();
              stop.countDown();
            }));
    stop.await();
    return 0;
  }

  private KubernetesClient client() {
    if (kubeconfig != null && !Files.isReadable(kubeconfig)) {
      throw new UserException("--kubeconfig " + kubeconfig + ": not a readable file");
    }
    try {
      return Clients.create(
          ClientOptions.forComponent("kubelet", qps, burst)
              .withKubeconfig(kubeconfig == null ? null : kubeconfig.toString()));
    } catch (RuntimeException e) {
      throw new UserException("API client: " + e.getMessage(), e);
    }
  }

  /** {@code cpu=8,memory=32Gi,pods=110} into quantities; bad entries name the flag and entry. */
  static Map<String, Quantity> parseCapacity(String text) {
    Map<String, Quantity> out = new LinkedHashMap<>();
    for (String entry : text.split(",")) {
      String e = entry.trim();
      int eq = e.indexOf('=');
      if (eq <= 0 || eq == e.length() - 1) {
        throw new UserException("--capacity: entry \"" + e + "\" is not RESOURCE=QUANTITY");
      }
      String value = e.substring(eq + 1);
      try {
        io.jdra.api.quantity.Quantity.parse(value);
      } catch (RuntimeException ex) {
        throw new UserException("--capacity: " + e.substring(0, eq) + ": " + ex.getMessage());
      }
      out.put(e.substring(0, eq), new Quantity(value));
    }
    return out;
  }
}
