package io.jdra.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.ClientOptions;
import io.jdra.runtime.client.Clients;
import io.jdra.scheduler.PodExplainer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code jdra explain}: why the scheduler places a pod where it does, or nowhere. */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description = "Explain scheduling decisions from the cluster's current state (read-only).",
    subcommands = {ExplainCommand.Pod.class})
final class ExplainCommand implements Runnable {
  @ParentCommand JdraCommand parent;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(
      name = "pod",
      mixinStandardHelpOptions = true,
      description = {
        "Run the scheduler's PreFilter and Filter plugins and the DRA allocator for one pod on",
        "the cluster's current state and print, per node, whether it fits and why not (per",
        "claim and request). Writes nothing."
      })
  static final class Pod implements Callable<Integer> {
    @ParentCommand ExplainCommand explain;
    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(
        paramLabel = "NS/NAME",
        description = "The pod (namespace/name; name alone means namespace default).")
    String pod;

    @Option(
        names = "--kubeconfig",
        paramLabel = "FILE",
        description = "Path to a kubeconfig (default: KUBECONFIG, ~/.kube/config).")
    Path kubeconfig;

    @Override
    public Integer call() {
      String ns = "default";
      String name = pod;
      int slash = pod.indexOf('/');
      if (slash >= 0) {
        ns = pod.substring(0, slash);
        name = pod.substring(slash + 1);
      }
      if (ns.isEmpty() || name.isEmpty() || name.contains("/")) {
        throw new UserException("pod: expected NAMESPACE/NAME, got \"" + pod + "\"");
      }
      try (KubernetesClient client =
          Clients.create(
              new ClientOptions(
                  kubeconfig == null ? null : kubeconfig.toString(), -1, 0, "jdra-explain"))) {
        String report =
            PodExplainer.explain(
                Ctx.background("explain"), client, ns, name, explain.parent.global.featureGates());
        spec.commandLine().getOut().print(report);
        spec.commandLine().getOut().flush();
        return 0;
      } catch (IllegalArgumentException e) {
        throw new UserException(e.getMessage());
      } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
        throw new UserException("read cluster state: " + e.getMessage(), e);
      }
    }
  }
}
