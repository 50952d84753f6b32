package io.jdra.cli.bench;

import java.util.List;

/**
 * One scheduler_perf workload with its parameters substituted: a test case's ops for one entry of
 * its {@code workloads}, named {@code TestCase/workload} as upstream names it.
 *
 * @param name {@code TestCase/workload}
 * @param ops the ops in order
 * @param labels upstream's labels ({@code performance}, {@code integration-test}, {@code short})
 * @param threshold upstream's CI minimum for SchedulingThroughput average, pods/s, or null
 * @param config the config it came from (template paths are relative to its directory)
 */
public record Workload(
    String name, List<Op> ops, List<String> labels, Double threshold, PerfConfig config) {

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
