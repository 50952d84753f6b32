package io.jdra.controllers.bench;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.controllers.manager.ControllerManager;
import io.jdra.controllers.manager.ControllerManagerOptions;
import io.jdra.controllers.manager.LifecycleOptions;
import io.jdra.controllers.namespace.NamespaceController;
import io.jdra.runtime.Ctx;
import io.jdra.testing.apiserver.TestApiServer;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Scenario benchmark of the garbage collector and the namespace controller, in one process with the
 * embedded API server (as {@code jdra up} runs them, with its namespace pacing): an owner with N
 * dependents deleted in the background and in the foreground, and a namespace with N objects
 * deleted. Prints, per step, the time from the delete to the last object gone and the process's CPU
 * time per object over that interval (API server, controllers and this generator together).
 *
 * <p>Options: {@code [--objects 2000] [--rounds 3]}.
 */
public final class GcScenario {
  private GcScenario() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(arg(args, "--objects", "2000"));
    int rounds = Integer.parseInt(arg(args, "--rounds", "3"));
    try (TestApiServer server = TestApiServer.start()) {
      KubernetesClient client = server.client();
      ControllerManager.Handle mgr =
          ControllerManager.start(
              Ctx.background("controller-manager"),
              server.newClient(),
              ControllerManagerOptions.defaults()
                  .withControllers(List.of("garbage-collector-controller", "namespace-controller"))
                  .withLifecycle(
                      LifecycleOptions.defaults()
                          .withNamespace(
                              new NamespaceController.Options(
                                  Duration.ZERO, Duration.ofSeconds(1)))));
      mgr.synced().get();
      try {
        for (int r = 0; r < rounds; r++) {
          String label = r == 0 ? " (warm-up)" : "";
          cascade(client, n, "bg" + r, DeletionPropagation.BACKGROUND, label);
          cascade(client, n, "fg" + r, DeletionPropagation.FOREGROUND, label);
          namespace(client, n, "ns" + r, label);
        }
      } finally {
        mgr.stop();
      }
    }
  }

  static void cascade(
      KubernetesClient client, int n, String ns, DeletionPropagation policy, String label)
      throws Exception {
    createNamespace(client, ns);
    HasMetadata owner = configMap(client, ns, "owner", List.of());
    OwnerReference ref =
        new OwnerReferenceBuilder()
            .withApiVersion("v1")
            .withKind("ConfigMap")
            .withName("owner")
            .withUid(owner.getMetadata().getUid())
            .withBlockOwnerDeletion(true)
            .build();
    createAll(client, ns, n, List.of(ref));
    awaitGraphHasSeenConfigMaps(client, ns);
    measure(
        "owner with " + n + " dependents, " + policy + label,
        n,
        () ->
            client
                .configMaps()
                .inNamespace(ns)
                .withName("owner")
                .withPropagationPolicy(policy)
                .delete(),
        () -> gone(client, ns));
  }

  /**
   * Owner and dependents gone; polled cheaply (one object per list) so that the generator's own CPU
   * stays out of the numbers.
   */
  static boolean gone(KubernetesClient client, String ns) {
    return client.configMaps().inNamespace(ns).withName("owner").get() == null
        && client
            .configMaps()
            .inNamespace(ns)
            .withLabel("bench", "dependent")
            .list(new io.fabric8.kubernetes.api.model.ListOptionsBuilder().withLimit(1L).build())
            .getItems()
            .isEmpty();
  }

  /**
   * Returns once the collector's graph holds every ConfigMap created so far: a probe whose only
   * owner never existed is collected only after the graph has taken it in, and the one ConfigMap
   * watch delivers the earlier ones before it.
   */
  static void awaitGraphHasSeenConfigMaps(KubernetesClient client, String ns) {
    OwnerReference ghost =
        new OwnerReferenceBuilder()
            .withApiVersion("v1")
            .withKind("ConfigMap")
            .withName("never-existed")
            .withUid(UUID.randomUUID().toString())
            .build();
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("graph-probe")
                .withOwnerReferences(ghost)
                .endMetadata()
                .build())
        .create();
    client
        .configMaps()
        .inNamespace(ns)
        .withName("graph-probe")
        .waitUntilCondition(Objects::isNull, 5, TimeUnit.MINUTES);
  }

  static void namespace(KubernetesClient client, int n, String ns, String label) throws Exception {
    createNamespace(client, ns);
    createAll(client, ns, n, List.of());
    measure(
        "namespace with " + n + " objects" + label,
        n,
        () -> client.namespaces().withName(ns).delete(),
        () -> client.namespaces().withName(ns).get() == null);
  }

  static void measure(String what, int n, Runnable delete, BooleanSupplier done)
      throws InterruptedException {
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    delete.run();
    while (!done.getAsBoolean()) {
      Thread.sleep(50);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpuMsPerObject = (os.getProcessCpuTime() - cpu0) / 1e6 / n;
    System.out.printf(
        "[bench] %s: gone in %.2f s, %.3f ms CPU per object, load %.1f%n",
        what, seconds, cpuMsPerObject, os.getSystemLoadAverage());
  }

  static void createNamespace(KubernetesClient client, String ns) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
  }

  static HasMetadata configMap(
      KubernetesClient client, String ns, String name, List<OwnerReference> owners) {
    return client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(java.util.Map.of("bench", "dependent"))
                .withOwnerReferences(owners)
                .endMetadata()
                .build())
        .create();
  }

  static void createAll(KubernetesClient client, String ns, int n, List<OwnerReference> owners)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      var futures = new java.util.ArrayList<java.util.concurrent.Future<?>>();
      for (int i = 0; i < n; i++) {
        String name = "cm-" + i;
        futures.add(pool.submit(() -> configMap(client, ns, name, owners)));
      }
      for (var f : futures) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  private static String arg(String[] args, String name, String def) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return def;
  }
}
