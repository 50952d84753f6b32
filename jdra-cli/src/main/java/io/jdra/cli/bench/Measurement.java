package io.jdra.cli.bench;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintWriter;
import java.util.HashMap;
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
  private final Throughput.Tracker tracker = new Throughput.Tracker();
  private final Set<String> namespaces = ConcurrentHashMap.newKeySet();
  private final Throughput.Sampler sampler;
  private Map<String, Histograms.Series> attemptsBefore = Map.of();
  private Map<String, Histograms.Series> sliBefore = Map.of();
  private Map<String, Long> countsBefore = Map.of();
  private boolean running;

  Measurement(PrometheusRegistry registry, PrintWriter progress) {
    this.registry = registry;
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
    Throughput t = running ? sampler.stop() : new Throughput(new double[0], java.util.List.of());
    running = false;
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
    return new Result(t, tracker.latenciesMillis(), attempts, sli, counts);
  }

  /**
   * One measurement.
   *
   * @param throughput SchedulingThroughput samples and the timeline
   * @param latenciesMillis create-to-bound latency of each measured pod
   * @param attemptDuration scheduler_scheduling_attempt_duration_seconds by result
   * @param sliDuration scheduler_pod_scheduling_sli_duration_seconds (null if not registered)
   * @param attempts scheduler_schedule_attempts_total by result, during the measurement
   */
  record Result(
      Throughput throughput,
      double[] latenciesMillis,
      Map<String, Histograms.Series> attemptDuration,
      Histograms.Series sliDuration,
      Map<String, Long> attempts) {
    Result {
      attemptDuration = new HashMap<>(attemptDuration);
    }
  }
}
