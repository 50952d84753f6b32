package io.jdra.cli.bench;

import io.jdra.api.features.FeatureGates;
import java.util.List;
import java.util.Map;

/**
 * One scheduler_perf workload with its parameters substituted: a test case's ops for one entry of
 * its {@code workloads}, named {@code TestCase/workload} as upstream names it.
 *
 * @param name {@code TestCase/workload}
 * @param ops the ops in order
 * @param labels upstream's labels ({@code performance}, {@code integration-test}, {@code short})
 * @param threshold upstream's CI minimum for SchedulingThroughput average, pods/s, or null
 * @param featureGates the test case's and the workload's featureGates, by upstream name
 * @param config the config it came from (template paths are relative to its directory)
 */
public record Workload(
    String name,
    List<Op> ops,
    List<String> labels,
    Double threshold,
    Map<String, Boolean> featureGates,
    PerfConfig config) {

  /**
   * The workload's gates that jdra has, on top of its defaults; the others (scheduler gates such as
   * SchedulerQueueingHints, which jdra's scheduler does not have) are added to {@code ignored}.
   */
  FeatureGates gates(List<String> ignored) {
    StringBuilder spec = new StringBuilder();
    featureGates.forEach((name, on) -> {
      try {
        FeatureGates.parse(name + "=" + on);
        spec.append(name).append('=').append(on).append(',');
      } catch (IllegalArgumentException e) {
        ignored.add(name + "=" + on);
      }
    });
    return FeatureGates.parse(spec.toString());
  }

  /** The measured pods: those of createPods ops that collect metrics (steady state: per batch). */
  int measuredPods() {
    int n = 0;
    for (Op op : ops) {
      if (op instanceof Op.CreatePods p && p.collectMetrics()) {
        n += p.count();
      }
    }
    return n;
  }
}
