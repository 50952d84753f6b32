package io.jdra.cli.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * jdra's description of upstream's DRA scheduler_perf test cases (kubernetes
 * test/integration/scheduler_perf/dra/performance-config.yaml and its partitionabledevices and
 * prioritizedlist siblings), used when upstream's file is not on this machine: the same ops,
 * parameters and workload names, built as the parsed form of such a file so they go through the
 * same {@link OpParser}. The steady-state case takes the shape upstream gave it in #140254 (slices
 * from resourceslice-basic-devices.yaml, a claim template with {@code numRequests}, {@code
 * selectors} and {@code constraints}), which the selector_ and match_ workloads need.
 */
final class BuiltinCases {
  static final String CEL_SELECTOR =
      "device.attributes[\"test-driver.cdi.k8s.io\"].driverVersion.major() >= 1 &&"
          + " device.capacity[\"test-driver.cdi.k8s.io\"].memory.isGreaterThan(quantity(\"1Mi\"))";

  static final String SOURCE = "jdra built-in";

  private BuiltinCases() {}

  static PerfConfig config(Path baseDir) {
    List<Object> cases =
        List.of(claimTemplate(), steadyState(), sharedClaims(), partitionable(), firstAvailable());
    return PerfConfig.fromYaml(SOURCE, baseDir, cases);
  }

  /** SchedulingWithResourceClaimTemplate: fill the cluster, init pods first, then measured ones. */
  private static Map<String, Object> claimTemplate() {
    List<Object> ops =
        List.of(
            op("createNodes", "countParam", "$nodesWithoutDRA"),
            op("createNodes", "nodeTemplatePath", NODE, "countParam", "$nodesWithDRA"),
            driver(),
            op("createAny", "templatePath", "templates/deviceclass.yaml"),
            op("createAny", "templatePath", TEMPLATE, "namespace", "init"),
            op(
                "createPods",
                "namespace",
                "init",
                "countParam",
                "$initPods",
                "podTemplatePath",
                POD),
            op("createAny", "templatePath", TEMPLATE, "namespace", "test"),
            op(
                "createPods",
                "namespace",
                "test",
                "countParam",
                "$measurePods",
                "podTemplatePath",
                POD,
                "collectMetrics",
                true));
    return testCase(
        "SchedulingWithResourceClaimTemplate",
        ops,
        workload("fast", "integration-test", null, burst(1, 1, 0, 10, 10)),
        workload("2000pods_100nodes", null, null, burst(100, 0, 1000, 1000, 20)),
        workload("2000pods_200nodes", null, null, burst(200, 0, 1000, 1000, 10)),
        workload("5000pods_500nodes", "performance", 40, burst(500, 0, 2500, 2500, 10)));
  }

  private static Map<String, Object> burst(int dra, int plain, int init, int measure, int max) {
    return params(
        "nodesWithDRA", dra,
        "nodesWithoutDRA", plain,
        "initPods", init,
        "measurePods", measure,
        "maxClaimsPerNode", max);
  }

  /**
   * SteadyStateClusterResourceClaimTemplate: a share of the devices allocated up front, then
   * batches of 10 pods created, scheduled and deleted for the duration.
   */
  private static Map<String, Object> steadyState() {
    List<Object> ops =
        List.of(
            op("createNodes", "countParam", "$nodesWithoutDRA"),
            op("createNodes", "nodeTemplatePath", NODE, "countParam", "$nodesWithDRA"),
            op(
                "createAny",
                "templatePath",
                "templates/resourceslice-basic-devices.yaml",
                "countParam",
                "$nodesWithDRA",
                "templateParams",
                params("numPCIRoots", "$numPCIRoots|2", "numDevices", 10)),
            op("createAny", "templatePath", "templates/deviceclass.yaml"),
            op(
                "createAny",
                "templatePath",
                "templates/resourceclaim.yaml",
                "countParam",
                "$initClaims",
                "namespace",
                "init"),
            op("allocResourceClaims", "namespace", "init"),
            op(
                "createAny",
                "templatePath",
                TEMPLATE,
                "namespace",
                "test",
                "templateParams",
                params(
                    "numRequests", "$numRequests|1",
                    "selectors", "$selectors|",
                    "constraints", "$constraints|")),
            op(
                "createPods",
                "namespace",
                "test",
                "countParam",
                "$measurePods|10",
                "steadyState",
                true,
                "durationParam",
                "$duration",
                "podTemplatePath",
                POD,
                "collectMetrics",
                true));
    List<Object> selectors = List.of(Map.of("cel", Map.of("expression", CEL_SELECTOR)));
    List<Object> match = List.of(Map.of("matchAttribute", "resource.kubernetes.io/pciRoot"));
    return testCase(
        "SteadyStateClusterResourceClaimTemplate",
        ops,
        workload("fast", "integration-test", null, steady(1, 1, 0, "2s")),
        workload("empty_500nodes", "performance", 64, steady(500, 0, 0, "10s")),
        workload("half_500nodes", "performance", 60, steady(500, 0, 2500, "10s")),
        workload("full_500nodes", "performance", 60, steady(500, 0, 4990, "10s")),
        workload("selector_fast", "integration-test", null, with(steady(1, 1, 0, "2s"), selectors)),
        workload(
            "selector_empty_500nodes",
            "performance",
            64,
            with(steady(500, 0, 0, "10s"), selectors)),
        workload(
            "match_fast", "integration-test", null, pods(match(steady(1, 1, 0, "2s"), match), 2)),
        workload(
            "match_empty_500nodes", "performance", 64, match(steady(500, 0, 0, "10s"), match)));
  }

  private static Map<String, Object> steady(int dra, int plain, int initClaims, String duration) {
    return params(
        "nodesWithDRA", dra,
        "nodesWithoutDRA", plain,
        "initClaims", initClaims,
        "duration", duration);
  }

  private static Map<String, Object> with(Map<String, Object> p, List<Object> selectors) {
    Map<String, Object> out = new LinkedHashMap<>(p);
    out.put("selectors", selectors);
    return out;
  }

  private static Map<String, Object> pods(Map<String, Object> p, int measurePods) {
    Map<String, Object> out = new LinkedHashMap<>(p);
    out.put("measurePods", measurePods);
    return out;
  }

  // Five requests that must share a PCI root: each pod takes half of a node whose devices
  // alternate between two roots, so the allocator always skips one device to find the next.
  private static Map<String, Object> match(Map<String, Object> p, List<Object> constraints) {
    Map<String, Object> out = new LinkedHashMap<>(p);
    out.put("numRequests", 5);
    out.put("numPCIRoots", 2);
    out.put("constraints", constraints);
    return out;
  }

  /** SchedulingWithResourceClaim: named claims, each shared by five pods. */
  private static Map<String, Object> sharedClaims() {
    List<Object> ops =
        List.of(
            op("createNodes", "countParam", "$nodesWithoutDRA"),
            op("createNodes", "nodeTemplatePath", NODE, "countParam", "$nodesWithDRA"),
            driver(),
            op("createAny", "templatePath", "templates/deviceclass.yaml"),
            op(
                "createAny",
                "templatePath",
                "templates/resourceclaim.yaml",
                "namespace",
                "init",
                "countParam",
                "$initClaims"),
            op(
                "createPods",
                "namespace",
                "init",
                "countParam",
                "$initPods",
                "podTemplatePath",
                REF),
            op(
                "createAny",
                "templatePath",
                "templates/resourceclaim.yaml",
                "namespace",
                "test",
                "countParam",
                "$measureClaims"),
            op(
                "createPods",
                "namespace",
                "test",
                "countParam",
                "$measurePods",
                "podTemplatePath",
                REF,
                "collectMetrics",
                true));
    return testCase(
        "SchedulingWithResourceClaim",
        ops,
        workload("fast", "integration-test", null, shared(1, 1, 0, 10, 2)),
        workload("2000pods_100nodes", null, null, shared(100, 0, 1000, 1000, 4)),
        workload("2000pods_200nodes", null, null, shared(200, 0, 1000, 1000, 2)),
        workload("5000pods_500nodes", null, null, shared(500, 0, 2500, 2500, 2)));
  }

  private static Map<String, Object> shared(int dra, int plain, int init, int measure, int max) {
    return params(
        "nodesWithDRA", dra,
        "nodesWithoutDRA", plain,
        "initPods", init,
        "initClaims", init / 5,
        "measurePods", measure,
        "measureClaims", measure / 5,
        "maxClaimsPerNode", max);
  }

  /**
   * SteadyStateClusterResourceClaimTemplatePartitionable (partitionabledevices/): slices with
   * shared counters, claims already holding the preallocated 2-counter devices, pods asking for two
   * devices of one slice, so the allocator backtracks once.
   */
  private static Map<String, Object> partitionable() {
    List<Object> ops =
        List.of(
            op("createNodes", "countParam", "$nodesWithoutDRA"),
            op("createNodes", "nodeTemplatePath", NODE, "countParam", "$nodesWithDRA"),
            op(
                "createAny",
                "templatePath",
                "templates/resourceslice-partitionable-countersets.yaml",
                "countParam",
                "$resourceSlices"),
            op(
                "createAny",
                "templatePath",
                "templates/resourceslice-partitionable-devices.yaml",
                "countParam",
                "$resourceSlices"),
            op("createAny", "templatePath", "templates/deviceclass.yaml"),
            op(
                "createAny",
                "templatePath",
                "templates/resourceclaim-with-selector.yaml",
                "namespace",
                "init",
                "countParam",
                "$initClaims"),
            op("allocResourceClaims", "namespace", "init"),
            op(
                "createAny",
                "templatePath",
                "templates/resourceclaimtemplate-for-two-devices.yaml",
                "namespace",
                "test"),
            op(
                "createPods",
                "namespace",
                "test",
                "countParam",
                "$measurePods",
                "steadyState",
                true,
                "durationParam",
                "$duration",
                "podTemplatePath",
                POD,
                "collectMetrics",
                true));
    // Upstream's slices select nodes labelled node-with-dra=true; the built-in slices are
    // available on all nodes instead, so these workloads have no nodes without DRA.
    Map<String, Object> tc =
        testCase(
            "SteadyStateClusterResourceClaimTemplatePartitionable",
            ops,
            workload("fast", "integration-test", null, partitioned(1, 10, 10, 10, "2s")),
            workload("2000pods_100nodes", null, null, partitioned(100, 2000, 2000, 2000, "10s")));
    gate(tc, "DRAPartitionableDevices");
    return tc;
  }

  private static Map<String, Object> partitioned(
      int dra, int slices, int initClaims, int measure, String duration) {
    return params(
        "nodesWithDRA", dra,
        "nodesWithoutDRA", 0,
        "resourceSlices", slices,
        "initClaims", initClaims,
        "measurePods", measure,
        "duration", duration);
  }

  /**
   * FirstAvailable (prioritizedlist/): ten pods whose claim template prefers a class without
   * devices and falls back to test-class.
   */
  private static Map<String, Object> firstAvailable() {
    List<Object> ops =
        List.of(
            op("createNodes", "countParam", "$nodesWithoutDRA"),
            op("createNodes", "nodeTemplatePath", NODE, "countParam", "$nodesWithDRA"),
            driver(),
            op("createAny", "templatePath", "templates/deviceclass.yaml"),
            op("createAny", "templatePath", "templates/deviceclass-no-devices.yaml"),
            op(
                "createAny",
                "templatePath",
                "templates/resourceclaim.yaml",
                "countParam",
                "$initClaims",
                "namespace",
                "init"),
            op("allocResourceClaims", "namespace", "init"),
            op(
                "createAny",
                "templatePath",
                "templates/resourceclaimtemplate-first-available.yaml",
                "namespace",
                "test"),
            op(
                "createPods",
                "namespace",
                "test",
                "count",
                10,
                "podTemplatePath",
                POD,
                "collectMetrics",
                true));
    Map<String, Object> fast =
        params("nodesWithDRA", 1, "nodesWithoutDRA", 1, "initClaims", 0, "maxClaimsPerNode", 10);
    Map<String, Object> tc =
        testCase("FirstAvailable", ops, workload("fast", "integration-test", null, fast));
    gate(tc, "DRAPrioritizedList");
    return tc;
  }

  private static final String NODE = "templates/node-with-dra-test-driver.yaml";
  private static final String TEMPLATE = "templates/resourceclaimtemplate.yaml";
  private static final String POD = "templates/pod-with-claim-template.yaml";
  private static final String REF = "templates/pod-with-claim-ref.yaml";

  private static Map<String, Object> driver() {
    return op(
        "createResourceDriver",
        "driverName",
        SchedulerBench.DRIVER,
        "nodes",
        "scheduler-perf-dra-*",
        "maxClaimsPerNodeParam",
        "$maxClaimsPerNode");
  }

  private static Map<String, Object> testCase(
      String name, List<Object> ops, Map<String, Object>... workloads) {
    Map<String, Object> tc = new LinkedHashMap<>();
    tc.put("name", name);
    tc.put("featureGates", new LinkedHashMap<>(Map.of("DynamicResourceAllocation", true)));
    tc.put("workloadTemplate", ops);
    tc.put("workloads", List.of(workloads));
    return tc;
  }

  @SuppressWarnings("unchecked")
  private static void gate(Map<String, Object> testCase, String gate) {
    ((Map<String, Object>) testCase.get("featureGates")).put(gate, true);
  }

  private static Map<String, Object> workload(
      String name, String label, Integer threshold, Map<String, Object> params) {
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("name", name);
    List<String> labels = new ArrayList<>();
    if (label != null) {
      labels.add(label);
    }
    if ("integration-test".equals(label)) {
      labels.add("short");
    }
    w.put("labels", labels);
    if (threshold != null) {
      w.put("threshold", threshold);
    }
    w.put("params", params);
    return w;
  }

  private static Map<String, Object> op(String opcode, Object... kv) {
    Map<String, Object> m = params(kv);
    m.put("opcode", opcode);
    return m;
  }

  private static Map<String, Object> params(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }
}
