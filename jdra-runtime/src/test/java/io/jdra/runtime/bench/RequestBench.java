package io.jdra.runtime.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.client.ApiRequests;
import io.jdra.runtime.client.ClientOptions;
import io.jdra.runtime.client.Clients;
import io.jdra.testing.objects.Make;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Scenario benchmark of {@link ApiRequests}' CPU per request (run by scripts/bench-requests): a JVM
 * of its own sends GETs (answers decoded into a Pod) and merge PATCHes (answers not read) of
 * existing pods to an API server in another process, from several threads, through one client.
 * Prints per round: requests per second, this process's CPU per request (everything the client
 * does, event loops included) and the API server's.
 *
 * <p>Options: {@code --kubeconfig F [--server-pid P] [--threads 16] [--requests 20000] [--rounds
 * 4]}; round 1 warms up and is printed but not summed.
 */
public final class RequestBench {
  private static final int PODS = 200;

  private RequestBench() {}

  public static void main(String[] args) throws Exception {
    String kubeconfig = arg(args, "--kubeconfig", null);
    long serverPid = Long.parseLong(arg(args, "--server-pid", "0"));
    int threads = Integer.parseInt(arg(args, "--threads", "16"));
    int requests = Integer.parseInt(arg(args, "--requests", "20000"));
    int rounds = Integer.parseInt(arg(args, "--rounds", "4"));
    ClientOptions options = new ClientOptions(kubeconfig, -1, 0, "request-bench");
    KubernetesClient first = Clients.create(options);
    ApiRequests api = new ApiRequests(first);
    String ns = "reqbench-" + System.currentTimeMillis();
    first
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    for (int i = 0; i < PODS; i++) {
      first.pods().inNamespace(ns).resource(Make.pod("p" + i).namespace(ns).obj()).create();
    }
    double[] sums = new double[3];
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    for (int r = 1; r <= rounds; r++) {
      double[] m = round(pool, api, ns, threads, requests, serverPid);
      System.out.printf(
          "[bench] round %d %6.0f req/s  client %5.1f us/req  server %5.1f us/req  (load %s)%n",
          r, m[0], m[1], m[2], load());
      if (r > 1) {
        for (int j = 0; j < 3; j++) {
          sums[j] += m[j];
        }
      }
    }
    if (rounds > 1) {
      System.out.printf(
          "[bench] mean of rounds 2-%d %6.0f req/s  client %5.1f us/req  server %5.1f us/req%n",
          rounds, sums[0] / (rounds - 1), sums[1] / (rounds - 1), sums[2] / (rounds - 1));
    }
    pool.shutdown();
    first.close();
  }

  /** Requests per second, client and server CPU microseconds per request. */
  private static double[] round(
      ExecutorService pool, ApiRequests api, String ns, int threads, int requests, long serverPid)
      throws Exception {
    ApiRequests.Resource<Pod> pods = api.resource("v1", "pods", Pod.class);
    ApiRequests.Resource<Void> patches = api.resource("v1", "pods", Void.class);
    int perThread = requests / threads / 2;
    long cpu0 = processCpuNanos();
    long server0 = serverCpuNanos(serverPid);
    long t0 = System.nanoTime();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(
          pool.submit(() -> {
            for (int i = 0; i < perThread; i++) {
              String name = "p" + ((thread * perThread + i) % PODS);
              if (pods.get(ns, name) == null) {
                throw new IllegalStateException("pod " + ns + "/" + name + " is gone (404)");
              }
              patches.patch(
                  ns,
                  name,
                  ApiRequests.Patch.merge(),
                  "{\"metadata\":{\"labels\":{\"n\":\"" + i + "\"}}}");
            }
          }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    int sent = perThread * 2 * threads;
    return new double[] {
      sent / seconds,
      (processCpuNanos() - cpu0) / 1e3 / sent,
      (serverCpuNanos(serverPid) - server0) / 1e3 / sent
    };
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** utime + stime of a process from /proc, in nanoseconds (clock ticks of 10 ms). */
  private static long serverCpuNanos(long pid) throws Exception {
    if (pid == 0) {
      return 0;
    }
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
  }

  private static String load() throws Exception {
    String[] l = Files.readString(Path.of("/proc/loadavg")).split(" ");
    return l[0] + " " + l[1] + " " + l[2];
  }

  private static String arg(String[] args, String name, String dflt) {
    for (int i = 0; i < args.length - 1; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    if (dflt == null) {
      throw new IllegalArgumentException(name + " is required");
    }
    return dflt;
  }
}
