package io.jdra.controllers.bench;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jdra.testing.objects.Make;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Scenario benchmark of the ResourceClaim controller (run by scripts/bench-resourceclaim): a burst
 * of pods with a ResourceClaimTemplate against a running API server and controller manager, each in
 * its own process. Measures, end to end, from the first pod create to the last pod whose status
 * records its claim: claims per second; and the CPU time per pod over that interval of the
 * controller process, the API server process and this load generator (idle CPU before the burst is
 * not counted). Afterwards it counts the claims each pod owns: more than one is a duplicate. The
 * generator's own requests are made cheap ({@link PodCreates}, {@link RecordedClaimsWatch}) so that
 * its CPU, which shares the two cores with the components, goes to the bare requests.
 *
 * <p>Options: {@code --kubeconfig F (--controller-pid P [--server-pid P] | --host-pid P) [--pods
 * 5000] [--threads 32] [--warmup 15000] [--rounds 1]}; {@code --host-pid} names the one process
 * that runs the API server and the controller together ({@link ClaimBurstHost}). The warm-up burst
 * (not measured) lets the JIT compilers of all three JVMs catch up. C2 keeps compiling for about
 * 15,000 pods: after a 2,000-pod warm-up its threads were still a third of the controller's and the
 * API server's CPU in the third burst of 5,000 (the per-thread lines show it), and under 5 % from
 * the fifth on, which then ran at 1.5-2 times the third's rate. {@code --rounds N} measures N
 * bursts one after the other, each printed.
 */
public final class ClaimBurst {
  /**
   * The controller manager's threads by name (the kernel keeps 15 characters): the controller's
   * workers, the HTTP client's event loops (requests and watch streams), fabric8's pool threads
   * ({@code -<hash>-pool-N-thread-N}, cut to 15 characters: watch decoding, event handlers), the
   * JVM's garbage collector and JIT compilers, the main thread.
   */
  private static final Map<String, Pattern> CONTROLLER_THREADS =
      orderedMap(
          "workers", "resource-claim-",
          "event loops", "vert\\.x-eventloo",
          "pools", "-?[0-9]+-poo|pool-",
          "gc", "GC Thread|G1 ",
          "jit", "C[12] CompilerThre",
          "main", "main$");

  /** The JVM's own threads (any process): garbage collector, JIT compilers. */
  private static final Map<String, Pattern> JVM_THREADS =
      orderedMap("gc", "GC Thread|G1 ", "jit", "C[12] CompilerThre");

  private ClaimBurst() {}

  private static Map<String, Pattern> orderedMap(String... kv) {
    Map<String, Pattern> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], Pattern.compile(kv[i + 1]));
    }
    return m;
  }

  public static void main(String[] args) throws Exception {
    String kubeconfig = arg(args, "--kubeconfig", null);
    long hostPid = Long.parseLong(arg(args, "--host-pid", "0"));
    long controllerPid = Long.parseLong(arg(args, "--controller-pid", hostPid == 0 ? null : "0"));
    long serverPid = Long.parseLong(arg(args, "--server-pid", "0"));
    long[] pids = hostPid != 0 ? new long[] {hostPid} : new long[] {controllerPid, serverPid};
    String[] names =
        hostPid != 0
            ? new String[] {"API server and controller (one process)", "load generator"}
            : new String[] {"controller", "API server", "load generator"};
    int pods = Integer.parseInt(arg(args, "--pods", "5000"));
    int threads = Integer.parseInt(arg(args, "--threads", "32"));
    int warmup = Integer.parseInt(arg(args, "--warmup", "15000"));
    int rounds = Integer.parseInt(arg(args, "--rounds", "1"));
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
      warmUp(client, ns, warmup, threads);
      for (int r = 1; r <= rounds; r++) {
        String prefix = rounds == 1 ? "pod" : "r" + r + "-pod";
        run(client, ns, prefix, pods, threads, pids, names);
      }
    }
  }

  /** A burst first, so that the JVMs have compiled their paths. */
  private static void warmUp(KubernetesClient client, String ns, int pods, int threads)
      throws Exception {
    burst(client, ns, "warm", pods, threads, new long[0], new String[0], true);
  }

  private static void run(
      KubernetesClient client,
      String ns,
      String prefix,
      int pods,
      int threads,
      long[] pids,
      String[] names)
      throws Exception {
    burst(client, ns, prefix, pods, threads, pids, names, false);
    Map<String, Long> perPod =
        client.resources(ResourceClaim.class).inNamespace(ns).list().getItems().stream()
            .filter(c -> c.getMetadata().getName().startsWith(prefix))
            .collect(
                Collectors.groupingBy(
                    c -> c.getMetadata().getOwnerReferences().get(0).getUid(),
                    Collectors.counting()));
    long claims = perPod.values().stream().mapToLong(Long::longValue).sum();
    long duplicated = perPod.values().stream().filter(n -> n > 1).count();
    System.out.printf(
        "[bench] claims of the %d pods: %d, owned by %d pods; %d pods own more than one%s%n",
        pods, claims, perPod.size(), duplicated, duplicated == 0 ? "" : " (DUPLICATES)");
    System.out.printf(
        "[bench] load average: %s%n", Files.readString(Path.of("/proc/loadavg")).trim());
  }

  private static void burst(
      KubernetesClient client,
      String ns,
      String prefix,
      int pods,
      int threads,
      long[] pids,
      String[] names,
      boolean quiet)
      throws Exception {
    Set<String> recorded = ConcurrentHashMap.newKeySet();
    CountDownLatch all = new CountDownLatch(pods);
    PodCreates creates = new PodCreates(client, ns, prefix);
    // Only this burst's changes: a watch from now, not the earlier bursts' pods first.
    String from =
        client
            .pods()
            .inNamespace(ns)
            .list(new ListOptionsBuilder().withLimit(1L).build())
            .getMetadata()
            .getResourceVersion();
    RecordedClaimsWatch watch =
        new RecordedClaimsWatch(
            client,
            ns,
            from,
            name -> {
              if (name.startsWith(prefix) && recorded.add(name)) {
                all.countDown();
              }
            });
    List<Map<String, Long>> threads0 = threads(pids);
    Duration[] cpu0 = cpu(pids);
    long t0 = System.nanoTime();
    AtomicInteger next = new AtomicInteger();
    List<Thread> creators = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      creators.add(
          Thread.ofPlatform()
              .start(() -> {
                for (int i = next.getAndIncrement(); i < pods; i = next.getAndIncrement()) {
                  creates.create(i);
                }
              }));
    }
    for (Thread t : creators) {
      t.join();
    }
    long tCreated = System.nanoTime();
    boolean done = await(all, watch);
    long t1 = System.nanoTime();
    Duration[] cpu1 = cpu(pids);
    List<Map<String, Long>> threads1 = threads(pids);
    watch.close();
    if (quiet) {
      return;
    }
    System.out.printf(
        "[bench] burst from %s to %s (UTC, to cut profiles)%n",
        java.time.LocalTime.now(java.time.ZoneOffset.UTC).minusNanos(t1 - t0),
        java.time.LocalTime.now(java.time.ZoneOffset.UTC));
    double created = (tCreated - t0) / 1e9;
    double endToEnd = (t1 - t0) / 1e9;
    System.out.printf(
        "[bench] %d pods with a template created in %.2f s (%.0f pods/s, %d threads)%n",
        pods, created, pods / created, threads);
    System.out.printf(
        "[bench] claims created and recorded in pod status, end to end: %d in %.2f s = %.0f claims/s%s%n",
        recorded.size(), endToEnd, recorded.size() / endToEnd, done ? "" : " (TIMED OUT)");
    for (int i = 0; i < cpu0.length; i++) {
      long cpuMs = cpu1[i].minus(cpu0[i]).toMillis();
      System.out.printf(
          "[bench] %s process CPU during the burst: %d ms = %.0f us per pod (%.2f cores)%n",
          names[i], cpuMs, cpuMs * 1000.0 / pods, cpuMs / 1000.0 / endToEnd);
    }
    for (int i = 0; i < threads1.size(); i++) {
      if (threads1.get(i).isEmpty()) {
        continue;
      }
      StringBuilder line = new StringBuilder("[bench] " + names[i] + " threads, CPU per pod:");
      for (Map.Entry<String, Long> e : threads1.get(i).entrySet()) {
        long ms = e.getValue() - threads0.get(i).getOrDefault(e.getKey(), 0L);
        line.append(String.format(" %s %.0f us,", e.getKey(), ms * 1000.0 / pods));
      }
      System.out.println(line.substring(0, line.length() - 1));
    }
  }

  /**
   * CPU by thread group of the controller (its groups) and the API server (the JVM's GC and JIT
   * threads, the rest), so that compilation still going on in a burst shows.
   */
  private static List<Map<String, Long>> threads(long[] pids) {
    List<Map<String, Long>> out = new ArrayList<>();
    for (int i = 0; i < pids.length; i++) {
      out.add(ThreadGroupsCpu.read(pids[i], i == 0 ? CONTROLLER_THREADS : JVM_THREADS));
    }
    return out;
  }

  /** Waits up to 10 minutes for every pod; false on a timeout. Fails when the watch fails. */
  private static boolean await(CountDownLatch all, RecordedClaimsWatch watch)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
    while (!all.await(100, TimeUnit.MILLISECONDS)) {
      if (watch.failure() != null) {
        throw new IllegalStateException(watch.failure());
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
    }
    return true;
  }

  /** CPU time so far of each process, then of this one; zero for an unknown process. */
  private static Duration[] cpu(long[] pids) {
    Duration[] out = new Duration[pids.length + 1];
    for (int i = 0; i < pids.length; i++) {
      out[i] =
          ProcessHandle.of(pids[i]).flatMap(p -> p.info().totalCpuDuration()).orElse(Duration.ZERO);
    }
    out[pids.length] = ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
    return out;
  }

  /** The value after {@code name} in {@code args}, else {@code def}; required when def is null. */
  static String arg(String[] args, String name, String def) {
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
