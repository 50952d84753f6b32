package io.jdra.cli;

import io.jdra.cli.up.DriverFlags;
import io.jdra.cli.up.LocalCluster;
import io.jdra.cli.up.Readiness;
import io.jdra.cli.up.UpOptions;
import io.jdra.exampledriver.controller.Plugins;
import io.jdra.runtime.Ctx;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code jdra up}: the whole DRA cluster on one machine. */
@Command(
    name = "up",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run a whole DRA cluster on this machine: the API server, the controller-manager, the"
          + " scheduler and simulated nodes, each a jdra kubelet with one dra-example-driver per"
          + " device profile over gRPC on Unix sockets. No containers, no hardware.",
      "Prints a line containing 'ready' with the kubectl command to use once every node is Ready"
          + " and every driver published its ResourceSlices. Ctrl-C stops everything; 'jdra up'"
          + " again on the same --data-dir resumes (objects kept, nodes re-register).",
    })
final class UpCommand implements Callable<Integer> {
  @ParentCommand JdraCommand parent;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--nodes",
      paramLabel = "N",
      defaultValue = "1",
      description = "Simulated nodes node-1 .. node-N (default: ${DEFAULT-VALUE}).")
  int nodes;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      defaultValue = ".jdra",
      description =
          "Objects, kubeconfig and node state (DIR/nodes/<node>/) (default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(
      names = "--port",
      paramLabel = "P",
      defaultValue = "6443",
      description = "The API server's HTTPS port, 0 for a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--device-profiles",
      paramLabel = "gpu[,net,cpu]",
      split = ",",
      defaultValue = "gpu",
      description =
          "dra-example-driver device profiles; one driver <profile>.example.com per profile on"
              + " every node (default: ${DEFAULT-VALUE}).")
  List<String> profiles;

  @Option(
      names = "--num-devices",
      paramLabel = "N",
      defaultValue = "8",
      description = "Devices per driver, the driver's --num-devices (default: ${DEFAULT-VALUE}).")
  int numDevices;

  @Option(
      names = "--driver-flags",
      paramLabel = "\"--flag=value ...\"",
      description =
          "Further dra-example-driver flags (space separated), given to every driver of the"
              + " profile they belong to, e.g. \"--gpu-partitions=4\" or"
              + " \"--gpu-allow-multiple-allocations\", as the demos' Helm values ask.")
  String driverFlags;

  @Option(
      names = "--extended-resource-name",
      paramLabel = "NAME",
      description =
          "Set the DeviceClasses' spec.extendedResourceName (the chart's"
              + " deviceClass.extendedResourceName).")
  String extendedResourceName;

  @Option(
      names = "--controller-plugins",
      paramLabel = "NAME",
      split = ",",
      description =
          "Run dra-example-controller with these plugins for each profile's driver, as the chart's"
              + " controller.plugins (available: BindingConditions). BindingConditions sets the"
              + " conditions the drivers publish with --driver-flags \"--binding-conditions\", so"
              + " pods bind; without it they wait in PreBind until the binding timeout.")
  List<String> controllerPlugins;

  @Option(
      names = "--in-memory",
      description = "Keep API objects in memory only; nothing survives a restart.")
  boolean inMemory;

  @Option(
      names = "--metrics-bind-address",
      paramLabel = "HOST:PORT",
      defaultValue = "127.0.0.1:0",
      description =
          "Where /metrics serves every component's metrics together (kubelet series labelled"
              + " node=\"node-N\"), with /healthz and /readyz; port 0 picks a free one, printed"
              + " when ready (default: ${DEFAULT-VALUE}).")
  String metricsBindAddress;

  @Option(
      names = "--ready-timeout",
      paramLabel = "DURATION",
      defaultValue = "PT2M",
      description = "How long to wait for readiness, ISO-8601 (default: ${DEFAULT-VALUE}).")
  Duration readyTimeout;

  @Override
  public Integer call() throws InterruptedException {
    UpOptions o;
    try {
      o =
          new UpOptions(
              nodes,
              dataDir,
              port,
              profiles,
              numDevices,
              driverFlags(),
              extendedResourceName,
              controllerPlugins,
              parent.global.featureGates(),
              inMemory,
              metricsBindAddress);
    } catch (IllegalArgumentException e) {
      throw new UserException(e.getMessage());
    }
    boolean bindingConditions = false;
    try {
      // Bad driver flags are found before anything starts.
      for (String p : o.profiles()) {
        bindingConditions |=
            DriverFlags.forDriver(
                    ExampleDriverCommand::parseFlags,
                    o,
                    p,
                    UpOptions.nodeName(1),
                    o.nodeRoot("node-1"))
                .bindingConditions();
      }
    } catch (IllegalArgumentException e) {
      throw new UserException("--driver-flags: " + e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    Ctx ctx = Ctx.background("jdra-up");
    LocalCluster cluster;
    try {
      cluster = LocalCluster.start(ctx, o, ExampleDriverCommand::parseFlags);
    } catch (RuntimeException e) {
      throw new UserException(e.getMessage() + " (nothing was left running)", e);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> {
              ctx.cancel();
              cluster.close();
              stopped.countDown();
            }));
    try {
      Readiness.await(cluster, o, readyTimeout);
    } catch (IllegalStateException e) {
      throw new UserException(e.getMessage(), e);
    }
    Path kc = cluster.kubeconfig().toAbsolutePath();
    out.println(
        "jdra is ready: "
            + nodes
            + (nodes == 1 ? " node" : " nodes")
            + ", drivers "
            + String.join(", ", o.profiles().stream().map(UpOptions::driverName).toList())
            + "; API server "
            + cluster.server().url());
    out.println("  export KUBECONFIG=" + kc + "; kubectl get nodes,resourceslices");
    out.println("  metrics of every component: " + cluster.metricsUrl());
    if (bindingConditions && !o.controllerPlugins().contains(Plugins.BINDING_CONDITIONS)) {
      out.println(
          "  note: devices have binding conditions but no controller satisfies them; pods using"
              + " them wait in PreBind until the binding timeout (add --controller-plugins"
              + " BindingConditions, as the chart's controller.plugins={BindingConditions})");
    }
    out.flush();
    stopped.await();
    return 0;
  }

  private List<String> driverFlags() {
    if (driverFlags == null || driverFlags.isBlank()) {
      return List.of();
    }
    return new ArrayList<>(Arrays.asList(driverFlags.trim().split("\\s+")));
  }
}
