package io.jdra.controllers.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.jdra.testing.objects.Make;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scenario benchmark of the ResourceClaim controller (run by scripts/bench-resourceclaim): a burst
 * of pods with a ResourceClaimTemplate against a running API server and controller manager, each in
 * its own process. Measures, end to end, from the first pod create to the last pod whose status
 * records its claim: claims per second; and the controller process's CPU time per pod over that
 * interval (its idle CPU before the burst is not counted).
 *
 * <p>Options: {@code --kubeconfig F --controller-pid P [--pods 5000] [--threads 32]}.
 */
public final class ClaimBurst {
  private ClaimBurst() {}

  public static void main(String[] args) throws Exception {
    String kubeconfig = arg(args, "--kubeconfig", null);
    long controllerPid = Long.parseLong(arg(args, "--controller-pid", "0"));
    int pods = Integer.parseInt(arg(args, "--pods", "5000"));
    int threads = Integer.parseInt(arg(args, "--threads", "32"));
    Config config = Config.fromKubeconfig(Files.readString(Path.of(kubeconfig)));
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      String ns = "burst-" + System.currentTimeMillis();
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
      client
          .resources(ResourceClaimTemplate.class)
          .inNamespace(ns)
          .resource(Make.claimTemplate("single-gpu").namespace(ns).request("gpu.example.com").obj())
          .create();
      warmUp(client, ns, threads);
      run(client, ns, pods, threads, controllerPid);
    }
  }

  /** A small burst first, so that both JVMs have compiled their paths. */
  private static void warmUp(KubernetesClient client, String ns, int threads) throws Exception {
    burst(client, ns, "warm", 500, threads, ProcessHandle.current().pid(), true);
  }

  private static void run(KubernetesClient client, String ns, int pods, int threads, long pid)
      throws Exception {
    burst(client, ns, "pod", pods, threads, pid, false);
    List<ResourceClaim> claims =
        client.resources(ResourceClaim.class).inNamespace(ns).list().getItems();
    long generated =
        claims.stream().filter(c -> c.getMetadata().getName().startsWith("pod")).count();
    System.out.printf(
        "[bench] claims in the namespace for the %d pods: %d (one each, no duplicates)%n",
        pods, generated);
    System.out.printf(
        "[bench] load average: %s%n", Files.readString(Path.of("/proc/loadavg")).trim());
  }

  private static void burst(
      KubernetesClient client,
      String ns,
      String prefix,
      int pods,
      int threads,
      long pid,
      boolean quiet)
      throws Exception {
    Set<String> recorded = ConcurrentHashMap.newKeySet();
    CountDownLatch all = new CountDownLatch(pods);
    Watch watch =
        client
            .pods()
            .inNamespace(ns)
            .watch(
                new Watcher<Pod>() {
                  @Override
                  public void eventReceived(Action action, Pod pod) {
                    String name = pod.getMetadata().getName();
                    if (name.startsWith(prefix)
                        && pod.getStatus() != null
                        && !pod.getStatus().getResourceClaimStatuses().isEmpty()
                        && recorded.add(name)) {
                      all.countDown();
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                });
    Duration cpu0 = cpu(pid);
    long t0 = System.nanoTime();
    AtomicInteger next = new AtomicInteger();
    List<Thread> creators = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      creators.add(
          Thread.ofPlatform()
              .start(() -> {
                for (int i = next.getAndIncrement(); i < pods; i = next.getAndIncrement()) {
                  client
                      .pods()
                      .inNamespace(ns)
                      .resource(
                          Make.pod(prefix + i)
                              .namespace(ns)
                              .claimFromTemplate("gpu", "single-gpu")
                              .container("ctr0", "gpu")
                              .obj())
                      .create();
                }
              }));
    }
    for (Thread t : creators) {
      t.join();
    }
    long tCreated = System.nanoTime();
    boolean done = all.await(10, TimeUnit.MINUTES);
    long t1 = System.nanoTime();
    Duration cpu1 = cpu(pid);
    watch.close();
    if (quiet) {
      return;
    }
    double created = (tCreated - t0) / 1e9;
    double endToEnd = (t1 - t0) / 1e9;
    System.out.printf(
        "[bench] %d pods with a template created in %.2f s (%.0f pods/s, %d threads)%n",
        pods, created, pods / created, threads);
    System.out.printf(
        "[bench] claims created and recorded in pod status, end to end: %d in %.2f s = %.0f claims/s%s%n",
        recorded.size(), endToEnd, recorded.size() / endToEnd, done ? "" : " (TIMED OUT)");
    long cpuMs = cpu1.minus(cpu0).toMillis();
    System.out.printf(
        "[bench] controller process CPU during the burst: %d ms = %.0f us per pod (%.2f cores)%n",
        cpuMs, cpuMs * 1000.0 / pods, cpuMs / 1000.0 / endToEnd);
  }

  private static Duration cpu(long pid) {
    return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).orElse(Duration.ZERO);
  }

  private static String arg(String[] args, String name, String def) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    if (def == null) {
      throw new IllegalArgumentException(name + " is required");
    }
    return def;
  }
}
