package io.jdra.cli.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A scheduler_perf DRA workload: the parameters of one entry of upstream's
 * test/integration/scheduler_perf/dra/performance-config.yaml (test case
 * SchedulingWithResourceClaimTemplate: nodes with the test driver, {@code initPods} pods in
 * namespace {@code init} scheduled first, then {@code measurePods} measured pods in {@code test}).
 *
 * @param name test case and workload name, as upstream ({@code Case/workload})
 * @param nodesWithDra nodes named scheduler-perf-dra-INDEX, each with one ResourceSlice
 * @param nodesWithoutDra plain nodes without devices
 * @param initPods pods scheduled before measuring
 * @param measurePods pods whose scheduling is measured
 * @param maxClaimsPerNode devices per node (the driver's capacity)
 */
public record Workload(
    String name,
    int nodesWithDra,
    int nodesWithoutDra,
    int initPods,
    int measurePods,
    int maxClaimsPerNode) {

  static final String CLAIM_TEMPLATE_CASE = "SchedulingWithResourceClaimTemplate";

  /** The workloads known by name, with upstream's parameters. */
  public static Map<String, Workload> known() {
    Map<String, Workload> m = new LinkedHashMap<>();
    add(m, new Workload(CLAIM_TEMPLATE_CASE + "/fast", 1, 1, 0, 10, 10));
    add(m, new Workload(CLAIM_TEMPLATE_CASE + "/2000pods_100nodes", 100, 0, 1000, 1000, 20));
    add(m, new Workload(CLAIM_TEMPLATE_CASE + "/2000pods_200nodes", 200, 0, 1000, 1000, 10));
    add(m, new Workload(CLAIM_TEMPLATE_CASE + "/5000pods_500nodes", 500, 0, 2500, 2500, 10));
    return m;
  }

  private static void add(Map<String, Workload> m, Workload w) {
    m.put(w.name(), w);
  }

  /** Looks a workload up by its full name or by the part after the slash. */
  public static Workload byName(String name) {
    for (Workload w : known().values()) {
      if (w.name().equals(name) || w.name().endsWith("/" + name)) {
        return w;
      }
    }
    throw new IllegalArgumentException(
        "unknown workload \"" + name + "\"; known: " + String.join(", ", known().keySet()));
  }
}
