package io.jdra.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.scheduler.TestFrameworks;
import io.jdra.scheduler.plugins.dynamicresources.DraManager;
import io.jdra.testing.objects.Make;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** scheduler_plugin_execution_duration_seconds: only sampled cycles report plugin durations. */
class PluginMetricsTest {
  @Test
  void sampledCyclesReportEachPluginWithItsStatus() {
    Ctx ctx = Ctx.forTest(new FakeClock());
    try (Parallelizer par = new Parallelizer(1)) {
      Framework fw =
          TestFrameworks.defaultProfile(
              new DraManager(io.jdra.allocator.AllocatorFeatures.defaults(), true), null, par);
      List<String> seen = new ArrayList<>();
      fw.setPluginMetrics(
          (plugin, point, status, nanos) -> seen.add(plugin + "/" + point + "/" + status));
      PodInfo pod = new PodInfo(Make.pod("p").namespace("ns").uid("u").container("c").obj());
      List<NodeInfo> nodes = List.of(NodeInfo.of(Make.node("n1").obj()));

      fw.runPreFilterPlugins(ctx, new CycleState(), pod, nodes);
      assertThat(seen).as("a cycle not sampled").isEmpty();

      CycleState sampled = new CycleState();
      sampled.setRecordPluginMetrics(true);
      fw.runPreFilterPlugins(ctx, sampled, pod, nodes);
      fw.runFilterPlugins(ctx, sampled, pod, nodes.get(0));
      assertThat(seen)
          .contains("DynamicResources/PreFilter/Skip", "NodeName/Filter/Success")
          .as("a node without allocatable cannot fit the pod")
          .contains("NodeResourcesFit/Filter/Unschedulable")
          .noneMatch(s -> s.startsWith("DynamicResources/Filter"));
    }
  }
}
