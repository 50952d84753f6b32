package io.jdra.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading performance-configs in upstream's format: references, defaults, errors. */
class PerfConfigTest {
  private static final String CONFIG =
      String.join(
          "\n",
          "- name: Case",
          "  featureGates: {DynamicResourceAllocation: true, DRAAdminAccess: true}",
          "  workloadTemplate:",
          "  - opcode: createNodes",
          "    countParam: $nodes",
          "  - opcode: createAny",
          "    templatePath: templates/thing.yaml",
          "    countParam: $nodes",
          "    templateParams:",
          "      roots: $roots|2",
          "      selectors: $selectors|",
          "      fixed: 10",
          "  - opcode: allocResourceClaims",
          "    namespace: init",
          "  - opcode: createPods",
          "    countParam: $pods",
          "    steadyStateParam: $steady",
          "    durationParam: $duration",
          "    collectMetrics: true",
          "  - opcode: barrier",
          "  workloads:",
          "  - name: small",
          "    labels: [integration-test, short]",
          "    featureGates: {DRAAdminAccess: false, SchedulerQueueingHints: true}",
          "    params: {nodes: 2, pods: 10, steady: true, duration: 1m30s}",
          "  - name: big",
          "    labels: [performance]",
          "    threshold: {dra: 56}",
          "    params: {nodes: 500, pods: 10, steady: false, duration: 0s, roots: 5,"
              + " selectors: [{cel: {expression: 'true'}}]}");

  @Test
  void workloadsAreResolvedWithTheirParams(@TempDir Path dir) throws Exception {
    Map<String, Workload> w = read(dir, CONFIG).workloads();

    assertThat(w).containsOnlyKeys("Case/small", "Case/big");
    Workload small = w.get("Case/small");
    Map<String, Object> smallParams = new HashMap<>();
    smallParams.put("roots", 2L);
    smallParams.put("selectors", null);
    smallParams.put("fixed", 10);
    assertThat(small.ops())
        .containsExactly(
            new Op.CreateNodes(2, null),
            new Op.CreateAny("templates/thing.yaml", 2, null, smallParams),
            new Op.AllocResourceClaims("init"),
            new Op.CreatePods("namespace-3", 10, null, true, false, true, Duration.ofSeconds(90)),
            new Op.Barrier(List.of(), "Scheduled"));
    assertThat(small.labels()).containsExactly("integration-test", "short");
    assertThat(small.threshold()).isNull();
    List<String> ignored = new java.util.ArrayList<>();
    assertThat(small.gates(ignored).enabled(io.jdra.api.features.Feature.DRA_ADMIN_ACCESS))
        .isFalse();
    assertThat(ignored).containsExactly("SchedulerQueueingHints=true");
    Workload big = w.get("Case/big");
    Op.CreateAny any = (Op.CreateAny) big.ops().get(1);
    assertThat(any.templateParams())
        .containsEntry("roots", 5)
        .containsEntry("selectors", List.of(Map.of("cel", Map.of("expression", "true"))));
    assertThat(big.threshold()).isEqualTo(56.0);
  }

  @Test
  void unsetParameterNamesWorkloadOpAndField(@TempDir Path dir) throws Exception {
    String config = CONFIG.replace("params: {nodes: 2, pods: 10,", "params: {nodes: 2,");

    assertThatThrownBy(() -> read(dir, config).workloads())
        .hasMessage(
            "Case/small: op 3 (createPods): countParam: parameter pods is not set by the workload");
  }

  @Test
  void unknownOpcodeAndFieldAreErrors(@TempDir Path dir) throws Exception {
    assertThatThrownBy(
            () -> read(dir, CONFIG.replace("opcode: barrier", "opcode: teleport")).workloads())
        .hasMessageStartingWith(
            "Case/small: op 4 (teleport): opcode teleport is not supported; supported: ");
    assertThatThrownBy(() ->
            read(dir, CONFIG.replace("namespace: init", "namespace: init\n    colour: red"))
                .workloads())
        .hasMessage("Case/small: op 2 (allocResourceClaims): unknown field colour");
  }

  @Test
  void goDurations() {
    assertThat(OpParser.goDuration("10s", "d")).isEqualTo(Duration.ofSeconds(10));
    assertThat(OpParser.goDuration("1h2m3.5s", "d")).isEqualTo(Duration.ofMillis(3_723_500));
    assertThat(OpParser.goDuration("250ms", "d")).isEqualTo(Duration.ofMillis(250));
    assertThatThrownBy(() -> OpParser.goDuration("10 s", "x: duration"))
        .hasMessage("x: duration: not a duration (like 10s or 1m30s): 10 s");
  }

  @Test
  void notAListOfTestCases(@TempDir Path dir) throws Exception {
    assertThatThrownBy(() -> read(dir, "name: x"))
        .hasMessageEndingWith("performance-config.yaml: expected a list of test cases");
  }

  @Test
  void builtinCatalogueHasEveryNamedWorkload() throws Exception {
    Catalog c = Catalog.builtin(null);

    assertThat(c.names())
        .contains(
            "SchedulingWithResourceClaimTemplate/5000pods_500nodes",
            "SchedulingWithResourceClaimTemplate/2000pods_100nodes",
            "SchedulingWithResourceClaimTemplate/2000pods_200nodes",
            "SteadyStateClusterResourceClaimTemplate/empty_500nodes",
            "SteadyStateClusterResourceClaimTemplate/half_500nodes",
            "SteadyStateClusterResourceClaimTemplate/full_500nodes",
            "SteadyStateClusterResourceClaimTemplate/selector_empty_500nodes",
            "SteadyStateClusterResourceClaimTemplate/match_empty_500nodes",
            "SchedulingWithResourceClaim/5000pods_500nodes",
            "SteadyStateClusterResourceClaimTemplatePartitionable/2000pods_100nodes",
            "FirstAvailable/fast");
    assertThat(c.byName("match_empty_500nodes").name())
        .isEqualTo("SteadyStateClusterResourceClaimTemplate/match_empty_500nodes");
    assertThatThrownBy(() -> c.byName("fast"))
        .hasMessageStartingWith("workload \"fast\" is in several test cases: ");
  }

  private static PerfConfig read(Path dir, String text) throws Exception {
    Path f = dir.resolve("performance-config.yaml");
    Files.writeString(f, text);
    return PerfConfig.read(f);
  }
}
