package io.jdra.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jdra.runtime.Ctx;
import io.jdra.scheduler.cache.Snapshot;
import io.jdra.scheduler.framework.BindPlugin;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.FilterPlugin;
import io.jdra.scheduler.framework.Framework;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.Parallelizer;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.Status;
import io.jdra.scheduler.plugins.queuesort.PrioritySort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Filter over the nodes ring (SchedulingAlgorithm.findFeasible keeps each node's status in an array
 * slot and builds the rejected nodes' map only when no node fits) against a plain model of
 * upstream's search: which nodes are filtered and in what order across pods, the node chosen, the
 * evaluated and feasible counts, the FitError's status per rejected node and the plugin errors.
 */
class FindFeasibleTest {
  private static final Ctx CTX = Ctx.background("find-feasible-test");

  /** Rejects, accepts or fails per pod and node from a table; records the nodes it filters. */
  private static final class TablePlugin implements FilterPlugin {
    final String name;
    Map<String, Status> answers = Map.of();
    final List<String> filtered = new ArrayList<>();

    TablePlugin(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Status filter(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node) {
      filtered.add(node.name());
      return answers.get(node.name());
    }
  }

  /** The model's outcome of one attempt, comparable with the algorithm's. */
  private record Model(String result, List<String> filtered) {}

  @Test
  void filteringMatchesThePlainModelOverRandomClusters() {
    Random random = new Random(11);
    for (int cluster = 0; cluster < 300; cluster++) {
      int n = 1 + random.nextInt(random.nextBoolean() ? 20 : 400);
      int percentage = new int[] {0, 5, 30, 100}[random.nextInt(4)];
      List<NodeInfo> nodes = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        nodes.add(NodeInfo.placeholder("node-" + i));
      }
      Snapshot snapshot = new Snapshot(nodes, 1);
      TablePlugin first = new TablePlugin("First");
      TablePlugin second = new TablePlugin("Second");
      SchedulingAlgorithm algorithm =
          new SchedulingAlgorithm(framework(first, second), percentage, new Random(cluster));
      Random modelRandom = new Random(cluster);
      int modelStart = 0;
      for (int pod = 0; pod < 6; pod++) {
        double fits = random.nextInt(4) == 0 ? 0 : random.nextDouble();
        boolean error = random.nextInt(10) == 0;
        first.answers = answers(random, nodes, fits, error, "first");
        second.answers = answers(random, nodes, fits, false, "second");
        first.filtered.clear();
        CycleState state = new CycleState();
        SchedulingAlgorithm.Result got =
            algorithm.schedule(CTX, state, new PodInfo(pod("p" + pod)), snapshot);
        Model expected =
            model(
                nodes, first, second, modelStart, algorithm.numFeasibleNodesToFind(n), modelRandom);
        assertThat(new Model(describe(got), List.copyOf(first.filtered)))
            .as("cluster %d (%d nodes, %d%%), pod %d", cluster, n, percentage, pod)
            .isEqualTo(expected);
        modelStart = (modelStart + expected.filtered().size()) % n;
      }
    }
  }

  /** Per node: success (absent), a rejection by this plugin, or now and then an error. */
  private static Map<String, Status> answers(
      Random random, List<NodeInfo> nodes, double fits, boolean error, String tag) {
    Map<String, Status> out = new java.util.HashMap<>();
    for (NodeInfo node : nodes) {
      if (error && random.nextInt(50) == 0) {
        out.put(node.name(), Status.error(tag + " broke on " + node.name()));
      } else if (random.nextDouble() >= fits) {
        out.put(
            node.name(),
            random.nextBoolean()
                ? Status.unschedulable(tag + " says no")
                : Status.unresolvable(tag + " never", "at all"));
      }
    }
    return out;
  }

  /**
   * Upstream's search written plainly: from the start round the ring, every node through the
   * plugins in order, until enough are feasible or a plugin fails; the rejected ones by name.
   */
  private static Model model(
      List<NodeInfo> nodes,
      TablePlugin first,
      TablePlugin second,
      int start,
      int toFind,
      Random random) {
    int n = nodes.size();
    List<String> filtered = new ArrayList<>();
    List<NodeInfo> feasible = new ArrayList<>();
    Map<String, String> rejected = new TreeMap<>();
    for (int i = 0; i < n && feasible.size() < toFind; i++) {
      NodeInfo node = nodes.get((start + i) % n);
      filtered.add(node.name());
      Status s = first.answers.get(node.name());
      String plugin = first.name;
      if (Status.ok(s)) {
        s = second.answers.get(node.name());
        plugin = second.name;
      }
      if (Status.ok(s)) {
        feasible.add(node);
        continue;
      }
      if (s.isError()) {
        return new Model("failed " + s.message() + " by " + plugin, filtered);
      }
      rejected.put(node.name(), describe(s.withPlugin(plugin)));
    }
    if (feasible.isEmpty()) {
      return new Model("fit error " + rejected, filtered);
    }
    String host =
        feasible.size() == 1
            ? feasible.get(0).name()
            : SchedulingAlgorithm.selectHost(feasible, new long[feasible.size()], random);
    return new Model(
        "scheduled on "
            + host
            + ", "
            + (feasible.size() + rejected.size())
            + " evaluated, "
            + feasible.size()
            + " feasible",
        filtered);
  }

  private static String describe(SchedulingAlgorithm.Result r) {
    return switch (r) {
      case SchedulingAlgorithm.Scheduled s ->
          "scheduled on "
              + s.node()
              + ", "
              + s.evaluatedNodes()
              + " evaluated, "
              + s.feasibleNodes()
              + " feasible";
      case SchedulingAlgorithm.FitError f -> {
        Map<String, String> byNode = new TreeMap<>();
        f.diagnosis().nodeToStatus().forEach((node, s) -> byNode.put(node, describe(s)));
        yield "fit error " + byNode;
      }
      case SchedulingAlgorithm.Failed f ->
          "failed " + f.status().message() + " by " + f.status().plugin();
    };
  }

  private static String describe(Status s) {
    return s.code() + " " + s.reasons() + " by " + s.plugin();
  }

  private static Framework framework(FilterPlugin... filters) {
    List<io.jdra.scheduler.framework.Plugin> plugins = new ArrayList<>();
    plugins.add(new PrioritySort());
    plugins.addAll(List.of(filters));
    BindPlugin bind = TestFrameworks.NO_BIND;
    plugins.add(bind);
    return new Framework("test", plugins, Map.of(), new Parallelizer(1));
  }

  private static Pod pod(String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .withUid(name)
        .endMetadata()
        .withNewSpec()
        .endSpec()
        .build();
  }
}
