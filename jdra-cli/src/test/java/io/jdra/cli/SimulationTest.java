package io.jdra.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.api.features.FeatureGates;
import io.jdra.cli.simulate.Reports;
import io.jdra.cli.simulate.Scenario;
import io.jdra.cli.simulate.ScenarioReader;
import io.jdra.cli.simulate.SimResult;
import io.jdra.cli.simulate.Simulation;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code jdra simulate}'s engine on small scenarios whose outcome can be worked out by hand: the
 * real scheduler and allocator decide, the simulation only moves time.
 */
class SimulationTest {
  static Scenario scenario(String yaml) {
    return ScenarioReader.parse("test.yaml", "test", yaml, ExampleDriverCommand::parseFlags);
  }

  static SimResult run(String yaml) {
    return Simulation.run(
        scenario(yaml), ExampleDriverCommand::parseFlags, FeatureGates.defaults());
  }

  static final String ONE_NODE =
      """
      cluster:
        nodes:
          - name: n
            drivers: [{profile: gpu, numDevices: 8}]
      """;

  @Test
  void theNinthOneGpuPodWaitsForTheFirstToFinish() {
    SimResult r =
        run(
            ONE_NODE
                + """
                workload:
                  pods:
                    - name: job
                      count: 9
                      runDuration: 1h
                      claims: [{name: gpu, deviceClassName: gpu.example.com}]
                """);
    assertThat(r.pods().scheduled()).isEqualTo(9);
    assertThat(r.pods().completed()).isEqualTo(9);
    assertThat(r.end()).isEqualTo(Duration.ofHours(2));
    SimResult.Stats p = r.pending().get("job");
    assertThat(p.count()).isEqualTo(9);
    assertThat(p.p50()).isZero();
    assertThat(p.max()).isEqualTo(3600.0);
    assertThat(r.devices())
        .singleElement()
        .satisfies(d -> {
          assertThat(d.units()).isEqualTo(8);
          assertThat(d.peakUtilisation()).isEqualTo(1.0);
        });
    // One failed attempt of the ninth pod, in the allocator's words.
    assertThat(r.reasons())
        .singleElement()
        .satisfies(g -> {
          assertThat(g.template()).isEqualTo("job");
          assertThat(g.reason())
              .isEqualTo(
                  "DynamicResources: claim gpu request gpu: needs 1 device, too few usable"
                      + " (rejected: already allocated)");
          assertThat(g.example()).contains("wants 1, 0 usable (8 already allocated)");
        });
  }

  @Test
  void partitionsCountAsSharesOfTheirGpuAndStrandWholeGpuPods() {
    SimResult r =
        run(
            """
            sampleInterval: 10m
            cluster:
              nodes:
                - name: n
                  drivers: [{profile: gpu, numDevices: 1, flags: ["--gpu-partitions=4"]}]
            workload:
              pods:
                - name: quarter
                  count: 2
                  runDuration: 1h
                  claims:
                    - name: gpu
                      deviceClassName: gpu.example.com
                      selectors: ["'partition' in device.attributes['gpu.example.com']"]
                - name: whole
                  count: 1
                  start: 30m
                  runDuration: 1h
                  claims:
                    - name: gpu
                      deviceClassName: gpu.example.com
                      selectors: ["'full' in device.attributes['gpu.example.com']"]
            """);
    assertThat(r.devices().get(0).peakUtilisation()).isEqualTo(1.0);
    SimResult.Sample first = r.samples().get(0);
    assertThat(first.utilisation().get("gpu.example.com")).isEqualTo(0.5);
    // Half the GPU is free, and none of it can take the whole-GPU pod.
    assertThat(first.fragmentationByTemplate().get("whole")).isEqualTo(1.0);
    assertThat(first.fragmentationByTemplate().get("quarter")).isEqualTo(0.0);
    // The whole-GPU pod arrives at 30m and runs once both quarters finished at 1h.
    assertThat(r.pending().get("whole").max()).isEqualTo(1800.0);
    assertThat(r.end()).isEqualTo(Duration.ofHours(2));
  }

  @Test
  void deleteAfterRemovesPendingAndRunningPods() {
    SimResult r =
        run(
            """
            cluster:
              nodes:
                - name: n
                  drivers: [{profile: gpu, numDevices: 1}]
            workload:
              pods:
                - name: job
                  count: 2
                  runDuration: 1h
                  deleteAfter: 10m
                  claims: [{name: gpu, deviceClassName: gpu.example.com}]
            """);
    assertThat(r.pods()).isEqualTo(new SimResult.PodCounts(2, 1, 0, 1, 1, 0, 0));
    assertThat(r.end()).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void podsThatNeverFitAreReportedWithTheirReasons() {
    SimResult r =
        run(
            ONE_NODE
                + """
                duration: 1h
                workload:
                  pods:
                    - name: greedy
                      count: 1
                      claims: [{name: gpus, deviceClassName: gpu.example.com, count: 16}]
                    - name: cpu-hungry
                      count: 1
                      requests: {cpu: "1000"}
                """);
    assertThat(r.pods().pendingAtEnd()).isEqualTo(2);
    assertThat(r.stillPending())
        .extracting(SimResult.StillPending::template)
        .containsExactly("greedy", "cpu-hungry");
    assertThat(r.reasons())
        .extracting(SimResult.ReasonGroup::reason)
        .contains(
            "DynamicResources: claim gpus request gpus: needs 16 devices, too few usable",
            "NodeResourcesFit: Insufficient cpu");
    // A template that fits no node even on an empty cluster has no fragmentation to speak of.
    assertThat(r.samples()).allSatisfy(s -> assertThat(s.fragmentationByTemplate()).isEmpty());
    // Unschedulable pods are retried when they have waited 5 minutes: 1 + 12 attempts in an hour.
    assertThat(r.failedAttempts().get("greedy")).isBetween(12, 14);
  }

  @Test
  void aSeedGivesOneResult() {
    String yaml =
        """
        seed: 5
        cluster:
          nodes:
            - name: n
              count: 3
              drivers: [{profile: gpu, numDevices: 4}]
        workload:
          pods:
            - name: small
              rate: 20/h
              until: 3h
              runDuration: {exponential: 30m}
              claims: [{name: gpu, deviceClassName: gpu.example.com}]
            - name: big
              rate: 4/h
              until: 3h
              runDuration: {uniform: [30m, 90m]}
              claims: [{name: gpu, deviceClassName: gpu.example.com, count: 3}]
        """;
    String a = Reports.json(run(yaml));
    String b = Reports.json(run(yaml));
    String other = Reports.json(run(yaml.replace("seed: 5", "seed: 6")));
    assertThat(a).isEqualTo(b);
    assertThat(other).isNotEqualTo(a);
  }

  @Test
  void samplesCoverTheRunAtTheInterval() {
    SimResult r =
        run(
            ONE_NODE
                + """
                duration: 1h
                sampleInterval: 15m
                workload:
                  pods:
                    - name: job
                      count: 1
                      claims: [{name: gpu, deviceClassName: gpu.example.com}]
                """);
    assertThat(r.samples())
        .extracting(SimResult.Sample::seconds)
        .containsExactly(0.0, 900.0, 1800.0, 2700.0, 3600.0);
    assertThat(r.samples()).allSatisfy(s -> assertThat(s.running()).isEqualTo(1));
    assertThat(List.copyOf(r.samples().get(0).utilisation().values())).containsExactly(0.125);
  }

  @Test
  void scheduledDeletionsTakeTheOldestMatchingPods() {
    SimResult r =
        run(
            """
            cluster:
              nodes:
                - name: n
                  drivers: [{profile: gpu, numDevices: 1}]
            workload:
              pods:
                - name: job
                  count: 3
                  runDuration: 1h
                  claims: [{name: gpu, deviceClassName: gpu.example.com}]
              deletions:
                - {at: 10m, template: job, phase: Pending, count: 1}
            """);
    // One runs, one of the two waiting is cancelled at 10m, the other runs from 1h to 2h.
    assertThat(r.pods()).isEqualTo(new SimResult.PodCounts(3, 2, 2, 1, 0, 0, 0));
    assertThat(r.end()).isEqualTo(Duration.ofHours(2));
  }

  @Test
  void pendingTimeoutDeletesOnlyPodsStillWaiting() {
    SimResult r =
        run(
            """
            cluster:
              nodes:
                - name: n
                  drivers: [{profile: gpu, numDevices: 1}]
            workload:
              pods:
                - name: job
                  count: 2
                  runDuration: 1h
                  pendingTimeout: 10m
                  claims: [{name: gpu, deviceClassName: gpu.example.com}]
            """);
    assertThat(r.pods()).isEqualTo(new SimResult.PodCounts(2, 1, 1, 1, 0, 0, 0));
    assertThat(r.end()).isEqualTo(Duration.ofHours(1));
  }
}
