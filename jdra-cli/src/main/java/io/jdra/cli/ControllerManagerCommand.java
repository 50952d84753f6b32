package io.jdra.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.controllers.manager.ControllerManager;
import io.jdra.controllers.manager.ControllerManagerOptions;
import io.jdra.controllers.manager.Controllers;
import io.jdra.controllers.manager.LifecycleOptions;
import io.jdra.controllers.manager.WorkloadSyncs;
import io.jdra.controllers.namespace.NamespaceController;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.ClientOptions;
import io.jdra.runtime.client.Clients;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code jdra controller-manager}: the DRA controllers of kube-controller-manager as a process,
 * against any API server (a real cluster or {@code jdra apiserver}). Stops cleanly on SIGTERM or
 * SIGINT: queues drained, informers stopped, Lease released.
 */
@Command(
    name = "controller-manager",
    mixinStandardHelpOptions = true,
    description = {
      "Run the DRA controllers of kube-controller-manager against an API server:",
      "resourceclaim-controller (claims from ResourceClaimTemplates, reservedFor cleanup,",
      "deallocation, deletion of claims of finished pods), device-taint-eviction-controller,",
      "the workload controllers replicaset-controller, deployment-controller, job-controller,",
      "ttl-after-finished-controller, and garbage-collector-controller and namespace-controller",
      "(cascading deletion and namespace finalization, which the API server leaves to them).",
      "Stops cleanly on SIGTERM/SIGINT: queues drained, informers stopped, Lease released."
    })
final class ControllerManagerCommand implements Callable<Integer> {
  /**
   * As upstream's: the API server names a write's field manager after the User-Agent's product when
   * the write gives none, so managedFields read as on a real cluster.
   */
  static final String USER_AGENT = "kube-controller-manager";

  @ParentCommand JdraCommand parent;

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description =
          "Kubeconfig of the API server. Without it: $KUBECONFIG, ~/.kube/config, or the in-cluster"
              + " service account, as kubectl.")
  Path kubeconfig;

  @Option(
      names = "--kube-api-qps",
      paramLabel = "QPS",
      defaultValue = "" + ClientOptions.CONTROLLER_MANAGER_QPS,
      description =
          "Client-side limit of requests per second to the API server, as kube-controller-manager"
              + " (default: ${DEFAULT-VALUE}; negative: no limit).")
  float kubeApiQps;

  @Option(
      names = "--kube-api-burst",
      paramLabel = "N",
      defaultValue = "" + ClientOptions.CONTROLLER_MANAGER_BURST,
      description = "Burst above --kube-api-qps (default: ${DEFAULT-VALUE}).")
  int kubeApiBurst;

  @Option(
      names = "--controllers",
      paramLabel = "NAME",
      split = ",",
      defaultValue = "*",
      description =
          "Controllers to run: '*' for all, NAME to enable, -NAME to disable; the first entry"
              + " naming a controller decides (default: ${DEFAULT-VALUE}). Known: ${jdra.controllers}.")
  List<String> controllers;

  @Option(
      names = "--concurrent-resource-claim-syncs",
      paramLabel = "N",
      defaultValue = "" + ControllerManagerOptions.DEFAULT_CONCURRENT_RESOURCE_CLAIM_SYNCS,
      description = "Workers of the ResourceClaim controller (default: ${DEFAULT-VALUE}).")
  int concurrentResourceClaimSyncs;

  @Option(
      names = "--concurrent-device-taint-eviction-syncs",
      paramLabel = "N",
      defaultValue = "" + ControllerManagerOptions.DEFAULT_CONCURRENT_DEVICE_TAINT_EVICTION_SYNCS,
      description =
          "The number of operations (evicting pods, updating DeviceTaintRule status) allowed to"
              + " run concurrently (default: ${DEFAULT-VALUE}).")
  int concurrentDeviceTaintEvictionSyncs;

  @Option(
      names = "--concurrent-replicaset-syncs",
      paramLabel = "N",
      defaultValue = "" + WorkloadSyncs.DEFAULT_CONCURRENT_SYNCS,
      description =
          "The number of replica sets that are allowed to sync concurrently (default:"
              + " ${DEFAULT-VALUE}).")
  int concurrentReplicaSetSyncs;

  @Option(
      names = "--concurrent-deployment-syncs",
      paramLabel = "N",
      defaultValue = "" + WorkloadSyncs.DEFAULT_CONCURRENT_SYNCS,
      description =
          "The number of deployment objects that are allowed to sync concurrently (default:"
              + " ${DEFAULT-VALUE}).")
  int concurrentDeploymentSyncs;

  @Option(
      names = "--concurrent-job-syncs",
      paramLabel = "N",
      defaultValue = "" + WorkloadSyncs.DEFAULT_CONCURRENT_SYNCS,
      description =
          "The number of job objects that are allowed to sync concurrently (default:"
              + " ${DEFAULT-VALUE}).")
  int concurrentJobSyncs;

  @Option(
      names = "--concurrent-gc-syncs",
      paramLabel = "N",
      defaultValue = "" + LifecycleOptions.DEFAULT_CONCURRENT_GC_SYNCS,
      description =
          "The number of garbage collector workers that are allowed to sync concurrently"
              + " (default: ${DEFAULT-VALUE}).")
  int concurrentGcSyncs;

  @Option(
      names = "--enable-garbage-collector",
      paramLabel = "BOOL",
      defaultValue = "true",
      arity = "1",
      description =
          "Enables the generic garbage collector (default: ${DEFAULT-VALUE}); without it,"
              + " dependents of deleted objects stay.")
  boolean enableGarbageCollector;

  @Option(
      names = "--concurrent-namespace-syncs",
      paramLabel = "N",
      defaultValue = "" + LifecycleOptions.DEFAULT_CONCURRENT_NAMESPACE_SYNCS,
      description =
          "The number of namespace objects that are allowed to sync concurrently (default:"
              + " ${DEFAULT-VALUE}).")
  int concurrentNamespaceSyncs;

  @Option(
      names = "--concurrent-ttl-after-finished-syncs",
      paramLabel = "N",
      defaultValue = "" + LifecycleOptions.DEFAULT_CONCURRENT_TTL_SYNCS,
      description =
          "The number of TTL-after-finished controller workers that are allowed to sync"
              + " concurrently (default: ${DEFAULT-VALUE}).")
  int concurrentTtlSyncs;

  @Option(
      names = "--leader-elect",
      description =
          "Run the controllers only while holding the coordination.k8s.io/v1 Lease (lease 15s,"
              + " renew 10s, retry 2s, as upstream).")
  boolean leaderElect;

  @Option(
      names = "--leader-elect-resource-namespace",
      paramLabel = "NS",
      defaultValue = ControllerManagerOptions.DEFAULT_LEASE_NAMESPACE,
      description = "Namespace of the Lease (default: ${DEFAULT-VALUE}).")
  String leaseNamespace;

  @Option(
      names = "--leader-elect-resource-name",
      paramLabel = "NAME",
      defaultValue = ControllerManagerOptions.DEFAULT_LEASE_NAME,
      description = "Name of the Lease (default: ${DEFAULT-VALUE}).")
  String leaseName;

  @Option(
      names = "--metrics-bind-address",
      paramLabel = "HOST:PORT",
      description =
          "Serve /metrics, /healthz, /readyz and /livez here (port 0: a free port); no server"
              + " without it.")
  String metricsBindAddress;

  @Override
  public Integer call() throws Exception {
    ControllerManagerOptions options;
    try {
      options =
          ControllerManagerOptions.defaults()
              .withControllers(controllers)
              .withConcurrentResourceClaimSyncs(concurrentResourceClaimSyncs)
              .withConcurrentDeviceTaintEvictionSyncs(concurrentDeviceTaintEvictionSyncs)
              .withWorkloadSyncs(
                  new WorkloadSyncs(
                      concurrentReplicaSetSyncs, concurrentDeploymentSyncs, concurrentJobSyncs))
              .withLifecycle(
                  new LifecycleOptions(
                      enableGarbageCollector,
                      concurrentGcSyncs,
                      concurrentNamespaceSyncs,
                      concurrentTtlSyncs,
                      NamespaceController.Options.defaults()))
              .withLeaderElect(leaderElect)
              .withLease(leaseNamespace, leaseName)
              .withMetricsBindAddress(metricsBindAddress)
              .withFeatureGates(parent.global.featureGates());
      Controllers.select(Controllers.builtIn(), options.controllers());
    } catch (IllegalArgumentException e) {
      throw new UserException(e.getMessage());
    }
    Ctx ctx = Ctx.background("controller-manager");
    try (KubernetesClient client = client()) {
      ControllerManager.Handle handle;
      try {
        handle = ControllerManager.start(ctx, client, options);
      } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
        throw new UserException(e.getMessage(), e);
      }
      Thread hook = new Thread(() -> stopQuietly(handle), "controller-manager-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        handle.terminated().get();
      } catch (ExecutionException e) {
        throw new UserException("controller manager: " + e.getCause().getMessage(), e.getCause());
      }
    }
    return 0;
  }

  private KubernetesClient client() {
    ClientOptions o =
        new ClientOptions(
            kubeconfig == null ? null : kubeconfig.toString(),
            kubeApiQps,
            kubeApiBurst,
            USER_AGENT);
    try {
      return Clients.create(o);
    } catch (IllegalArgumentException e) {
      throw new UserException(e.getMessage(), e);
    }
  }

  private static void stopQuietly(ControllerManager.Handle handle) {
    try {
      handle.stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
