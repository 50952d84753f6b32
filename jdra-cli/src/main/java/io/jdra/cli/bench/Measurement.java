package io.jdra.cli.bench;

import io.jdra.runtime.metrics.ThreadGroupCpu;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What scheduler_perf collects while a workload's measured pods are scheduled: throughput from the
 * pods bound in the measured namespaces, and the scheduler's metrics observed meanwhile (the
 * difference of two snapshots of its registry).
 */
final class Measurement {
  static final String ATTEMPT_DURATION = "scheduler_scheduling_attempt_duration_seconds";
  static final String SLI_DURATION = "scheduler_pod_scheduling_sli_duration_seconds";

  private final PrometheusRegistry registry;
  private final PrometheusRegistry apiServer;
  private final Throughput.Tracker tracker = new Throughput.Tracker();
  private final Set<String> namespaces = ConcurrentHashMap.newKeySet();
  private final Throughput.Sampler sampler;
  private Map<String, Histograms.Series> attemptsBefore = Map.of();
  private Map<String, Histograms.Series> sliBefore = Map.of();
  private Map<String, Long> countsBefore = Map.of();
  private Map<String, Long> requestsBefore = Map.of();
  private long cpuBefore;
  private Map<String, Long> threadsBefore = Map.of();
  private boolean running;

  /**
   * @param registry the scheduler's metrics
   * @param apiServer the API server's metrics (apiserver_request_total)
   */
  Measurement(PrometheusRegistry registry, PrometheusRegistry apiServer, PrintWriter progress) {
    this.registry = registry;
    this.apiServer = apiServer;
    this.sampler = new Throughput.Sampler(tracker, progress);
  }

  /**
   * Counts pods of {@code ns} from now on; the first call starts sampling and takes the baseline of
   * the scheduler's metrics (what the init pods caused is not measured).
   */
  synchronized void collect(java.util.Collection<String> ns) {
    namespaces.addAll(ns);
    if (!running) {
      running = true;
      attemptsBefore = Histograms.snapshot(registry, ATTEMPT_DURATION, "result");
      sliBefore = Histograms.snapshot(registry, SLI_DURATION, null);
      countsBefore = Histograms.attempts(registry);
      requestsBefore = RequestCounts.snapshot(apiServer);
      cpuBefore = processCpuNanos();
      threadsBefore = ThreadCpu.read();
      sampler.start();
    }
  }

  boolean measures(String namespace) {
    return namespaces.contains(namespace);
  }

  Throughput.Tracker tracker() {
    return tracker;
  }

  /** Stops sampling; what was measured. */
  synchronized Result stop() throws InterruptedException {
    boolean wasRunning = running;
    Throughput t = running ? sampler.stop() : new Throughput(new double[0], java.util.List.of());
    running = false;
    long cpu = wasRunning ? processCpuNanos() - cpuBefore : 0;
    Map<String, Long> threads =
        wasRunning ? ThreadGroupCpu.minus(ThreadCpu.read(), threadsBefore) : Map.of();
    Map<String, Long> requests =
        wasRunning
            ? RequestCounts.minus(RequestCounts.snapshot(apiServer), requestsBefore)
            : Map.of();
    Map<String, Histograms.Series> attempts = new TreeMap<>();
    Histograms.snapshot(registry, ATTEMPT_DURATION, "result")
        .forEach((k, v) -> attempts.put(k, v.minus(attemptsBefore.get(k))));
    Histograms.Series sli =
        Histograms.snapshot(registry, SLI_DURATION, null).get("") == null
            ? null
            : Histograms.snapshot(registry, SLI_DURATION, null).get("").minus(sliBefore.get(""));
    Map<String, Long> counts = new TreeMap<>();
    Histograms.attempts(registry)
        .forEach((k, v) -> counts.put(k, v - countsBefore.getOrDefault(k, 0L)));
    return new Result(t, tracker.latenciesMillis(), attempts, sli, counts, cpu, threads, requests);
  }

  /** This process's CPU time (user + system), in nanoseconds; -1 where the JVM cannot tell. */
  static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /**
   * One measurement.
   *
   * @param throughput SchedulingThroughput samples and the timeline
   * @param latenciesMillis create-to-bound latency of each measured pod
   * @param attemptDuration scheduler_scheduling_attempt_duration_seconds by result
   * @param sliDuration scheduler_pod_scheduling_sli_duration_seconds (null if not registered)
   * @param attempts scheduler_schedule_attempts_total by result, during the measurement
   * @param cpuNanos the process's CPU time (user + system) during the measurement
   * @param threadCpuNanos of it, per thread group ({@link ThreadCpu}); empty off Linux
   * @param requests API requests during the measurement by verb and resource
   *     (apiserver_request_total)
   */
  record Result(
      Throughput throughput,
      double[] latenciesMillis,
      Map<String, Histograms.Series> attemptDuration,
      Histograms.Series sliDuration,
      Map<String, Long> attempts,
      long cpuNanos,
      Map<String, Long> threadCpuNanos,
      Map<String, Long> requests) {
    Result {
      attemptDuration = new HashMap<>(attemptDuration);
      threadCpuNanos = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(threadCpuNanos));
      requests = new TreeMap<>(requests);
    }

    /** CPU milliseconds per measured pod bound by thread group, largest first; empty if unknown. */
    Map<String, Double> threadCpuMillisPerPod() {
      int pods = latenciesMillis.length;
      Map<String, Double> out = new LinkedHashMap<>();
      if (pods > 0) {
        threadCpuNanos.entrySet().stream()
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .forEach(e -> out.put(e.getKey(), e.getValue() / 1e6 / pods));
      }
      return out;
    }

    /** CPU milliseconds per measured pod bound; NaN without pods. */
    double cpuMillisPerPod() {
      int pods = latenciesMillis.length;
      return pods == 0 || cpuNanos < 0 ? Double.NaN : cpuNanos / 1e6 / pods;
    }
  }
}
