package io.jdra.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTermBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.FilterPlugin;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.Status;
import io.jdra.scheduler.plugins.nodeaffinity.NodeAffinity;
import io.jdra.scheduler.plugins.nodename.NodeName;
import io.jdra.scheduler.plugins.nodeports.NodePorts;
import io.jdra.scheduler.plugins.noderesources.Fit;
import io.jdra.scheduler.plugins.nodeunschedulable.NodeUnschedulable;
import io.jdra.scheduler.plugins.tainttoleration.TaintToleration;
import io.jdra.testing.objects.Make;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Filter of every default node plugin as one table: plugin, pod, node (with pods), expected. */
class DefaultPluginsTest {
  private static final Ctx CTX = Ctx.forTest(new FakeClock());

  record Case(String name, FilterPlugin plugin, Pod pod, NodeInfo node, String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Pod pod(String cpu, String mem) {
    return new PodBuilder(Make.pod("p").namespace("ns").uid("p").obj())
        .editSpec()
        .withContainers(
            new ContainerBuilder()
                .withName("c")
                .withNewResources()
                .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(mem)))
                .endResources()
                .build())
        .endSpec()
        .build();
  }

  static Node node(String cpu, String mem, String pods) {
    return new NodeBuilder(Make.node("n").labels("zone", "a").obj())
        .withNewStatus()
        .withAllocatable(
            Map.of(
                "cpu", new Quantity(cpu), "memory", new Quantity(mem), "pods", new Quantity(pods)))
        .endStatus()
        .build();
  }

  static NodeInfo info(Node n, Pod... pods) {
    NodeInfo ni = NodeInfo.of(n);
    for (Pod p : pods) {
      ni = ni.withPod(new PodInfo(p), 1);
    }
    return ni;
  }

  static Pod withPort(String uid, int port, String ip) {
    return new PodBuilder(Make.pod(uid).namespace("ns").uid(uid).obj())
        .editSpec()
        .editFirstContainer()
        .withPorts(
            new ContainerPortBuilder()
                .withContainerPort(80)
                .withHostPort(port)
                .withHostIP(ip)
                .build())
        .endContainer()
        .endSpec()
        .build();
  }

  static Node tainted(String effect) {
    return new NodeBuilder(node("4", "4Gi", "10"))
        .withNewSpec()
        .withTaints(new TaintBuilder().withKey("gpu").withValue("true").withEffect(effect).build())
        .endSpec()
        .build();
  }

  static Pod tolerating(String key) {
    return new PodBuilder(pod("1", "1Gi"))
        .editSpec()
        .withTolerations(new TolerationBuilder().withKey(key).withOperator("Exists").build())
        .endSpec()
        .build();
  }

  static Stream<Case> cases() {
    Node big = node("4", "8Gi", "110");
    Fit fit = new Fit(name -> name.startsWith("deviceclass.resource.kubernetes.io/"));
    Pod withExtended =
        new PodBuilder(pod("1", "1Gi"))
            .editSpec()
            .editFirstContainer()
            .editResources()
            .addToRequests("deviceclass.resource.kubernetes.io/gpu.example.com", new Quantity("1"))
            .addToRequests("example.com/foo", new Quantity("1"))
            .endResources()
            .endContainer()
            .endSpec()
            .build();
    return Stream.of(
        new Case("fit: fits", fit, pod("1", "1Gi"), info(big), null),
        new Case(
            "fit: cpu used by other pods",
            fit,
            pod("2", "1Gi"),
            info(big, pod("3", "1Gi")),
            "Insufficient cpu"),
        new Case(
            "fit: cpu and memory, upstream order",
            fit,
            pod("5", "9Gi"),
            info(big),
            "Insufficient cpu, Insufficient memory"),
        new Case(
            "fit: too many pods",
            fit,
            pod("1", "1Gi"),
            info(node("4", "8Gi", "0")),
            "Too many pods"),
        new Case(
            "fit: DRA-backed extended resource left to DynamicResources, others checked",
            fit,
            withExtended,
            info(big),
            "Insufficient example.com/foo"),
        new Case(
            "nodename: other node",
            new NodeName(),
            new PodBuilder(pod("1", "1Gi")).editSpec().withNodeName("m").endSpec().build(),
            info(big),
            "node(s) didn't match the requested node name"),
        new Case("nodename: unset", new NodeName(), pod("1", "1Gi"), info(big), null),
        new Case(
            "unschedulable: cordoned",
            new NodeUnschedulable(),
            pod("1", "1Gi"),
            info(new NodeBuilder(big).withNewSpec().withUnschedulable(true).endSpec().build()),
            "node(s) were unschedulable"),
        new Case(
            "unschedulable: tolerated",
            new NodeUnschedulable(),
            tolerating("node.kubernetes.io/unschedulable"),
            info(new NodeBuilder(big).withNewSpec().withUnschedulable(true).endSpec().build()),
            null),
        new Case(
            "taint: NoSchedule not tolerated",
            new TaintToleration(),
            pod("1", "1Gi"),
            info(tainted("NoSchedule")),
            "node(s) had untolerated taint {gpu: true}"),
        new Case(
            "taint: NoSchedule tolerated",
            new TaintToleration(),
            tolerating("gpu"),
            info(tainted("NoSchedule")),
            null),
        new Case(
            "taint: PreferNoSchedule does not filter",
            new TaintToleration(),
            pod("1", "1Gi"),
            info(tainted("PreferNoSchedule")),
            null),
        new Case(
            "affinity: nodeSelector matches",
            new NodeAffinity(),
            new PodBuilder(pod("1", "1Gi"))
                .editSpec()
                .withNodeSelector(Map.of("zone", "a"))
                .endSpec()
                .build(),
            info(big),
            null),
        new Case(
            "affinity: nodeSelector does not match",
            new NodeAffinity(),
            new PodBuilder(pod("1", "1Gi"))
                .editSpec()
                .withNodeSelector(Map.of("zone", "b"))
                .endSpec()
                .build(),
            info(big),
            "node(s) didn't match Pod's node affinity/selector"),
        new Case(
            "affinity: required term does not match",
            new NodeAffinity(),
            new PodBuilder(pod("1", "1Gi"))
                .editSpec()
                .withNewAffinity()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .addNewNodeSelectorTerm()
                .withMatchExpressions(
                    new NodeSelectorRequirementBuilder()
                        .withKey("zone")
                        .withOperator("In")
                        .withValues("b")
                        .build())
                .endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .endAffinity()
                .endSpec()
                .build(),
            info(big),
            "node(s) didn't match Pod's node affinity/selector"),
        new Case(
            "ports: conflict on all addresses",
            new NodePorts(),
            withPort("a", 8080, null),
            info(big, withPort("b", 8080, "10.0.0.1")),
            "node(s) didn't have free ports for the requested pod ports"),
        new Case(
            "ports: different addresses",
            new NodePorts(),
            withPort("a", 8080, "10.0.0.2"),
            info(big, withPort("b", 8080, "10.0.0.1")),
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void filter(Case c) {
    Status s = c.plugin().filter(CTX, new CycleState(), new PodInfo(c.pod()), c.node());
    if (c.want() == null) {
      assertThat(Status.ok(s)).as(String.valueOf(s)).isTrue();
    } else {
      assertThat(s).isNotNull();
      assertThat(s.message()).isEqualTo(c.want());
    }
  }

  @org.junit.jupiter.api.Test
  void leastAllocatedScore_prefersTheEmptierNode() {
    Fit fit = new Fit(n -> false);
    PodInfo p = new PodInfo(pod("1", "1Gi"));
    long empty = fit.score(CTX, new CycleState(), p, info(node("4", "4Gi", "10")));
    long busy = fit.score(CTX, new CycleState(), p, info(node("4", "4Gi", "10"), pod("2", "2Gi")));
    // (4-1)/4 and (4-1)/4 -> 75; (4-3)/4 and (4-3)/4 -> 25
    assertThat(empty).isEqualTo(75);
    assertThat(busy).isEqualTo(25);
  }

  @org.junit.jupiter.api.Test
  void preferredAffinityAndTaints_scoreAndNormalise() {
    NodeAffinity aff = new NodeAffinity();
    Pod p =
        new PodBuilder(pod("1", "1Gi"))
            .editSpec()
            .withNewAffinity()
            .withNewNodeAffinity()
            .withPreferredDuringSchedulingIgnoredDuringExecution(
                new PreferredSchedulingTermBuilder()
                    .withWeight(10)
                    .withNewPreference()
                    .withMatchExpressions(
                        new NodeSelectorRequirementBuilder()
                            .withKey("zone")
                            .withOperator("In")
                            .withValues("a")
                            .build())
                    .endPreference()
                    .build())
            .endNodeAffinity()
            .endAffinity()
            .endSpec()
            .build();
    long[] scores = {
      aff.score(CTX, new CycleState(), new PodInfo(p), info(node("1", "1Gi", "1"))), 0
    };
    aff.normalizeScore(new CycleState(), new PodInfo(p), scores);
    assertThat(scores).containsExactly(100, 0);

    TaintToleration tt = new TaintToleration();
    long[] t = {
      tt.score(
          CTX, new CycleState(), new PodInfo(pod("1", "1Gi")), info(tainted("PreferNoSchedule"))),
      tt.score(CTX, new CycleState(), new PodInfo(pod("1", "1Gi")), info(node("1", "1Gi", "1")))
    };
    tt.normalizeScore(new CycleState(), null, t);
    assertThat(t).containsExactly(0, 100);
  }

  @org.junit.jupiter.api.Test
  void podRequest_initContainersAndSidecarsAsUpstream() {
    Pod p =
        new PodBuilder(pod("1", "1Gi"))
            .editSpec()
            .withInitContainers(
                List.of(
                    new ContainerBuilder()
                        .withName("init")
                        .withNewResources()
                        .withRequests(Map.of("cpu", new Quantity("3")))
                        .endResources()
                        .build(),
                    new ContainerBuilder()
                        .withName("sidecar")
                        .withRestartPolicy("Always")
                        .withNewResources()
                        .withRequests(Map.of("cpu", new Quantity("500m")))
                        .endResources()
                        .build()))
            .endSpec()
            .build();
    // max(init 3, containers 1 + sidecar 0.5) = 3 cpus
    assertThat(new PodInfo(p).request().milliCpu()).isEqualTo(3000);
  }
}
