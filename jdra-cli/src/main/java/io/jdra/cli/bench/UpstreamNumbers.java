package io.jdra.cli.bench;

import java.util.List;

/**
 * SchedulingThroughput averages (pods/s) that upstream published for its DRA workloads, with where
 * they were published: benchstat results from local runs on 6 CPUs (the {@code -6} suffix) posted
 * in kubernetes/kubernetes PRs and issues. docs/BENCHMARKS.md lists the same numbers.
 */
final class UpstreamNumbers {
  private UpstreamNumbers() {}

  /**
   * One published number.
   *
   * @param workload the workload part of the name (upstream moved the steady-state workloads from
   *     SteadyStateClusterResourceClaimTemplate into SchedulingWithResourceClaimTemplate in
   *     #140254)
   * @param podsPerSecond SchedulingThroughput average
   * @param source where it was published and what it measured
   */
  record Number(String workload, double podsPerSecond, String source) {}

  static final String PR_138916 =
      "kubernetes#138916 (PreQueueingHint), local run on 6 CPUs, after the change";
  static final String PR_138916_BEFORE =
      "kubernetes#138916 (PreQueueingHint), local run on 6 CPUs, before the change";
  static final String PR_140254 = "kubernetes#140254 (DRA scheduler_perf improvements), 6 CPUs";
  static final String ISSUE_140877 = "kubernetes#140877 (DRA pod startup latency), 6 CPUs, newer";

  static final List<Number> ALL =
      List.of(
          new Number("5000pods_500nodes", 380.6, PR_138916),
          new Number("5000pods_500nodes", 254.8, PR_138916_BEFORE),
          new Number("empty_500nodes", 271.9, PR_138916),
          new Number("empty_500nodes", 269.2, ISSUE_140877),
          new Number("half_500nodes", 257.9, PR_138916),
          new Number("half_500nodes", 254.4, ISSUE_140877),
          new Number("full_500nodes", 256.6, PR_138916),
          new Number("full_500nodes", 255.4, ISSUE_140877),
          new Number("selector_empty_500nodes", 240.8, PR_140254),
          new Number("selector_empty_500nodes", 242.2, PR_138916),
          new Number("selector_empty_500nodes", 244.5, ISSUE_140877),
          new Number("match_empty_500nodes", 109.1, PR_140254),
          new Number("match_empty_500nodes", 121.0, PR_138916),
          new Number("match_empty_500nodes", 117.2, ISSUE_140877));

  /** The numbers for a workload, by the part of its name after the slash. */
  static List<Number> forWorkload(String name) {
    String shortName = name.substring(name.indexOf('/') + 1);
    return ALL.stream().filter(n -> n.workload().equals(shortName)).toList();
  }
}
