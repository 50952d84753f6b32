package io.jdra.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.exampledriver.controller.ExampleController;
import io.jdra.exampledriver.controller.Plugins;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.ClientOptions;
import io.jdra.runtime.client.Clients;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jdra example-controller}: the Java twin of dra-example-driver's {@code
 * dra-example-controller}, with its flags, against any cluster a kubeconfig reaches.
 */
@Command(
    name = "example-controller",
    mixinStandardHelpOptions = true,
    description = {
      "Run the DRA example driver's controller: it watches ResourceClaims allocated from the"
          + " driver and runs the enabled plugins on them.",
      "BindingConditions sets the binding conditions the kubelet plugin publishes with"
          + " --binding-conditions to True in the claim's status.devices, so the scheduler binds"
          + " the pod (the chart's controller.plugins={BindingConditions})."
    })
final class ExampleControllerCommand implements Callable<Integer> {
  /** controller-runtime's client defaults, which upstream's binary keeps. */
  static final float QPS = 20;

  static final int BURST = 30;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--driver-name",
      paramLabel = "NAME",
      defaultValue = ExampleController.DEFAULT_DRIVER_NAME,
      description = "The driver name to filter ResourceClaims by (default: ${DEFAULT-VALUE}).")
  String driverName;

  @Option(
      names = "--enable-plugin",
      paramLabel = "NAME",
      description =
          "Enable a plugin (can be specified multiple times). Available: ${COMPLETION-CANDIDATES}.",
      completionCandidates = PluginNames.class)
  List<String> plugins = new ArrayList<>();

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description =
          "Kubeconfig of the API server. Without it: $KUBECONFIG, ~/.kube/config, or the in-cluster"
              + " service account, as kubectl.")
  Path kubeconfig;

  /** The plugin names for the help text. */
  static final class PluginNames extends ArrayList<String> {
    PluginNames() {
      super(Plugins.names());
    }
  }

  @Override
  public Integer call() throws Exception {
    try {
      Plugins.parse(plugins);
    } catch (IllegalArgumentException e) {
      throw new UserException("--enable-plugin: " + e.getMessage());
    }
    Ctx ctx = Ctx.background("dra-example-controller").withCancel();
    try (KubernetesClient client = client()) {
      ExampleController controller = ExampleController.start(ctx, client, driverName, plugins);
      PrintWriter out = spec.commandLine().getOut();
      out.println(
          "example controller for " + driverName + " running plugins " + Plugins.parse(plugins));
      out.flush();
      Runtime.getRuntime().addShutdownHook(new Thread(ctx::cancel));
      ctx.done().join();
      controller.close();
    }
    return 0;
  }

  private KubernetesClient client() {
    ClientOptions o =
        new ClientOptions(
            kubeconfig == null ? null : kubeconfig.toString(),
            QPS,
            BURST,
            "dra-example-controller");
    try {
      return Clients.create(o);
    } catch (IllegalArgumentException e) {
      throw new UserException(e.getMessage(), e);
    }
  }
}
