package io.jdra.controllers.bench;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jdra.runtime.client.Clients;
import io.jdra.runtime.metrics.ThreadGroupCpu;
import io.jdra.testing.objects.Make;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * that runs the API server and the controller together ({@link ClaimBurstHost}), which can also run
 * this generator itself ({@link #bench} with {@link Part#oneProcess}). The warm-up burst (not
 * measured) lets the JIT compilers of all three JVMs catch up. C2 keeps compiling for about 15,000
 * pods: after a 2,000-pod warm-up its threads were still a third of the controller's and the API
 * server's CPU in the third burst of 5,000 (the per-thread lines show it), and under 5 % from the
 * fifth on, which then ran at 1.5-2 times the third's rate. {@code --rounds N} measures N bursts
 * one after the other, each printed.
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

  /**
   * The threads of the one process that runs everything ({@link ClaimBurstHost --generate}): the
   * controller's workers; the API server's event loops, which also run the in-process clients'
   * response callbacks; fabric8's pools (the informers' watch decoding and event handlers, of the
   * controller and of the generator's client); this generator's pod creators and watch reader; GC;
   * JIT.
   */
  private static final Map<String, Pattern> ONE_PROCESS_THREADS =
      orderedMap(
          "workers", "resource-claim-",
          "server event loops", "vert\\.x-eventloo",
          "informer pools", "-?[0-9]+-poo|pool-",
          "generator", "claim-burst-|recorded-claims",
          "gc", "GC Thread|G1 ",
          "jit", "C[12] CompilerThre");

  /** The JVM's own threads (any process): garbage collector, JIT compilers. */
  private static final Map<String, Pattern> JVM_THREADS =
      orderedMap("gc", "GC Thread|G1 ", "jit", "C[12] CompilerThre");

  /**
   * A process whose CPU the benchmark reports: its name, its pid (0: this process) and the thread
   * groups to report (empty: only the process total).
   */
  record Part(String name, long pid, Map<String, Pattern> threads) {
    /** The API server, the controller and this generator in this process. */
    static List<Part> oneProcess() {
      return List.of(
          new Part("one process (API server, controller, load generator)", 0, ONE_PROCESS_THREADS));
    }

    /**
     * The processes named by {@code --host-pid}, or {@code --controller-pid} and {@code
     * --server-pid}.
     */
    static List<Part> fromArgs(String[] args) {
      long hostPid = Long.parseLong(arg(args, "--host-pid", "0"));
      List<Part> parts = new ArrayList<>();
      if (hostPid != 0) {
        parts.add(new Part("API server and controller (one process)", hostPid, CONTROLLER_THREADS));
      } else {
        parts.add(
            new Part(
                "controller",
                Long.parseLong(arg(args, "--controller-pid", null)),
                CONTROLLER_THREADS));
        parts.add(
            new Part("API server", Long.parseLong(arg(args, "--server-pid", "0")), JVM_THREADS));
      }
      parts.add(new Part("load generator", 0, Map.of()));
      return parts;
    }

    long resolvedPid() {
      return pid == 0 ? ProcessHandle.current().pid() : pid;
    }
  }

  private ClaimBurst() {}

  private static Map<String, Pattern> orderedMap(String... kv) {
    Map<String, Pattern> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], Pattern.compile(kv[i + 1]));
    }
    return m;
  }

  public static void main(String[] args) throws Exception {
    Config config =
        Config.fromKubeconfig(Files.readString(Path.of(arg(args, "--kubeconfig", null))));
    try (KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withKubernetesSerialization(Clients.sharedSerialization())
            .build()) {
      bench(client, args, Part.fromArgs(args));
    }
  }

  /**
   * The warm-up burst and {@code --rounds} measured bursts (options {@code --pods}, {@code
   * --threads}, {@code --warmup}, {@code --rounds} of {@code args}) through {@code client}, in a
   * new namespace; prints each measured burst's numbers for {@code parts}.
   */
  static void bench(KubernetesClient client, String[] args, List<Part> parts) throws Exception {
    int pods = Integer.parseInt(arg(args, "--pods", "5000"));
    int threads = Integer.parseInt(arg(args, "--threads", "32"));
    int warmup = Integer.parseInt(arg(args, "--warmup", "15000"));
    int rounds = Integer.parseInt(arg(args, "--rounds", "1"));
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
      run(client, ns, prefix, pods, threads, parts);
    }
  }

  /** A burst first, so that the JVMs have compiled their paths. */
  private static void warmUp(KubernetesClient client, String ns, int pods, int threads)
      throws Exception {
    burst(client, ns, "warm", pods, threads, List.of(), true);
  }

  private static void run(
      KubernetesClient client, String ns, String prefix, int pods, int threads, List<Part> parts)
      throws Exception {
    burst(client, ns, prefix, pods, threads, parts, false);
    Map<String, Long> perPod =
        // Without managedFields: fabric8's default decoding interned the pod-UID key of every
        // claim's managedFields, blocking an event loop for seconds once 20,000 claims exist.
        Clients.withoutManagedFields(client)
            .resources(ResourceClaim.class)
            .inNamespace(ns)
            .list()
            .getItems()
            .stream()
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
      List<Part> parts,
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
    List<Map<String, Long>> threads0 = threads(parts);
    Duration[] cpu0 = cpu(parts);
    long t0 = System.nanoTime();
    AtomicInteger next = new AtomicInteger();
    List<Thread> creators = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      creators.add(
          Thread.ofPlatform()
              .name("claim-burst-create-" + t)
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
    Duration[] cpu1 = cpu(parts);
    List<Map<String, Long>> threads1 = threads(parts);
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
          parts.get(i).name(), cpuMs, cpuMs * 1000.0 / pods, cpuMs / 1000.0 / endToEnd);
    }
    for (int i = 0; i < threads1.size(); i++) {
      if (threads1.get(i).isEmpty()) {
        continue;
      }
      StringBuilder line =
          new StringBuilder("[bench] " + parts.get(i).name() + " threads, CPU per pod:");
      for (Map.Entry<String, Long> e : threads1.get(i).entrySet()) {
        long ms = e.getValue() - threads0.get(i).getOrDefault(e.getKey(), 0L);
        line.append(String.format(" %s %.0f us,", e.getKey(), ms * 1000.0 / pods));
      }
      System.out.println(line.substring(0, line.length() - 1));
    }
  }

  /**
   * CPU by thread group of each part (for the controller its groups, for the API server the JVM's
   * GC and JIT threads), so that compilation still going on in a burst shows.
   */
  private static List<Map<String, Long>> threads(List<Part> parts) {
    List<Map<String, Long>> out = new ArrayList<>();
    for (Part p : parts) {
      out.add(
          p.threads().isEmpty()
              ? Map.of()
              : millis(ThreadGroupCpu.read(ThreadGroupCpu.of(p.resolvedPid()), p.threads())));
    }
    return out;
  }

  private static Map<String, Long> millis(Map<String, Long> nanos) {
    Map<String, Long> out = new LinkedHashMap<>();
    nanos.forEach((k, v) -> out.put(k, v / 1_000_000));
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

  /** CPU time so far of each part's process; zero for an unknown process. */
  private static Duration[] cpu(List<Part> parts) {
    Duration[] out = new Duration[parts.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] =
          ProcessHandle.of(parts.get(i).resolvedPid())
              .flatMap(p -> p.info().totalCpuDuration())
              .orElse(Duration.ZERO);
    }
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
