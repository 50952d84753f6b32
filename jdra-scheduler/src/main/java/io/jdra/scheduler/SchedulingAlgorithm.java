package io.jdra.scheduler;

import io.jdra.runtime.Ctx;
import io.jdra.scheduler.cache.Snapshot;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.Diagnosis;
import io.jdra.scheduler.framework.Framework;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.PreFilterPlugin;
import io.jdra.scheduler.framework.Status;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Upstream {@code schedulePod}: PreFilter, Filter over the nodes in parallel until enough feasible
 * nodes were found, Score, and the pick of the best node. Pure with respect to the cluster (only
 * plugins' in-memory state changes); one call at a time (it remembers where the next search starts,
 * as upstream, so consecutive pods spread over the nodes).
 */
public final class SchedulingAlgorithm {
  /** Upstream {@code minFeasibleNodesToFind}. */
  static final int MIN_FEASIBLE_NODES_TO_FIND = 100;

  /** Upstream {@code minFeasibleNodesPercentageToFind}. */
  static final int MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

  private final Framework framework;
  private final int percentageOfNodesToScore;
  private final Supplier<RandomGenerator> random;
  private int nextStartNodeIndex;

  /** What an attempt found. */
  public sealed interface Result {}

  /** The node chosen, how many nodes were evaluated and how many were feasible. */
  public record Scheduled(String node, int evaluatedNodes, int feasibleNodes) implements Result {}

  /** No node fits: the diagnosis and the FitError message. */
  public record FitError(Diagnosis diagnosis, int numAllNodes) implements Result {
    public String message() {
      return diagnosis.fitErrorMessage(numAllNodes);
    }
  }

  /** The attempt failed with an error. */
  public record Failed(Status status) implements Result {}

  public SchedulingAlgorithm(Framework framework, int percentageOfNodesToScore) {
    this.framework = framework;
    this.percentageOfNodesToScore = percentageOfNodesToScore;
    this.random = ThreadLocalRandom::current;
  }

  /**
   * With the generator that breaks ties between equally scored nodes: a seeded one makes runs
   * repeatable ({@code jdra simulate}); with a parallelism of 1 the whole attempt is then
   * deterministic. Not thread-safe beyond what the generator is.
   */
  public SchedulingAlgorithm(
      Framework framework, int percentageOfNodesToScore, RandomGenerator random) {
    this.framework = framework;
    this.percentageOfNodesToScore = percentageOfNodesToScore;
    this.random = () -> random;
  }

  public Framework framework() {
    return framework;
  }

  public Result schedule(Ctx ctx, CycleState state, PodInfo pod, Snapshot snapshot) {
    List<NodeInfo> all = snapshot.nodes();
    if (all.isEmpty()) {
      Diagnosis d = new Diagnosis(Map.of());
      d.setPreFilterMsg("no nodes available to schedule pods");
      return new FitError(d, 0);
    }
    PreFilterPlugin.Result pre = framework.runPreFilterPlugins(ctx, state, pod, all);
    if (!Status.ok(pre.status())) {
      Status s = pre.status();
      if (s.isError()) {
        return new Failed(s);
      }
      Diagnosis d = new Diagnosis(Map.of());
      d.setPreFilterMsg(s.message());
      addRejector(d, s);
      return new FitError(d, all.size());
    }
    List<NodeInfo> nodes = all;
    if (pre.nodeNames() != null) {
      nodes = new ArrayList<>();
      for (String n : pre.nodeNames()) {
        NodeInfo ni = snapshot.get(n);
        if (ni != null) {
          nodes.add(ni);
        }
      }
    }
    Filtered f = findFeasible(ctx, state, pod, nodes);
    if (f.error() != null) {
      return new Failed(f.error());
    }
    List<NodeInfo> feasible = f.feasible();
    if (feasible.isEmpty()) {
      Map<String, Status> rejected = f.rejected(nodes);
      Diagnosis d = new Diagnosis(rejected);
      for (Status s : rejected.values()) {
        addRejector(d, s);
      }
      return new FitError(d, all.size());
    }
    int evaluated = feasible.size() + f.rejectedCount();
    if (feasible.size() == 1) {
      return new Scheduled(feasible.get(0).name(), evaluated, 1);
    }
    long[] scores = framework.runScorePlugins(ctx, state, pod, feasible);
    return new Scheduled(selectHost(feasible, scores, random.get()), evaluated, feasible.size());
  }

  private static void addRejector(Diagnosis d, Status s) {
    if (s.plugin() == null) {
      return;
    }
    if (s.code() == Status.Code.PENDING) {
      d.pendingPlugins().add(s.plugin());
    } else {
      d.unschedulablePlugins().add(s.plugin());
    }
  }

  /**
   * What Filter found: the feasible nodes (at most the number to find), the status of every node
   * filtered by its position in the list filtered ({@code statuses}: success, a rejection, or null
   * when not filtered), how many were rejected, and the first error a plugin returned (null when
   * none; then the attempt fails).
   */
  private record Filtered(
      List<NodeInfo> feasible, Status[] statuses, int rejectedCount, Status error) {

    /**
     * Node name -> status of each rejected node (upstream's {@code NodeToStatus}), made only when
     * an attempt finds no node: a successful one needs only how many were rejected.
     */
    Map<String, Status> rejected(List<NodeInfo> nodes) {
      Map<String, Status> out = new ConcurrentHashMap<>(Math.max(16, rejectedCount * 4 / 3 + 1));
      for (int i = 0; i < statuses.length; i++) {
        Status s = statuses[i];
        if (s != null && !Status.ok(s)) {
          out.put(nodes.get(i).name(), s);
        }
      }
      return out;
    }
  }

  /**
   * Filters nodes from {@link #nextStartNodeIndex} round the ring until enough are feasible. Each
   * node's status goes to its own slot of an array, not into a shared map: in the steady state with
   * devices in use, hundreds of nodes per pod are rejected and the map (grown five times per pod)
   * was only read when no node fitted. The slots also count the nodes filtered, which an atomic
   * counter per node did.
   */
  private Filtered findFeasible(Ctx ctx, CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    int n = nodes.size();
    int toFind = numFeasibleNodesToFind(n);
    NodeInfo[] found = new NodeInfo[toFind];
    Status[] statuses = new Status[n];
    AtomicInteger feasibleCount = new AtomicInteger();
    AtomicReference<Status> error = new AtomicReference<>();
    int start = nextStartNodeIndex % n;
    framework
        .parallelizer()
        .until(
            n,
            i -> {
              if (error.get() != null) {
                return false;
              }
              int at = (start + i) % n;
              NodeInfo node = nodes.get(at);
              Status s = framework.runFilterPlugins(ctx, state, pod, node);
              if (Status.ok(s)) {
                statuses[at] = Status.success();
                int k = feasibleCount.getAndIncrement();
                if (k < toFind) {
                  found[k] = node;
                }
                return k + 1 < toFind;
              }
              statuses[at] = s;
              if (s.isError()) {
                error.compareAndSet(null, s);
                return false;
              }
              return true;
            });
    int processed = 0;
    for (Status s : statuses) {
      if (s != null) {
        processed++;
      }
    }
    nextStartNodeIndex = (start + processed) % n;
    if (error.get() != null) {
      return new Filtered(List.of(), statuses, processed - feasibleCount.get(), error.get());
    }
    int count = Math.min(feasibleCount.get(), toFind);
    List<NodeInfo> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      if (found[i] != null) {
        out.add(found[i]);
      }
    }
    return new Filtered(out, statuses, processed - feasibleCount.get(), null);
  }

  /** Upstream {@code numFeasibleNodesToFind}. */
  int numFeasibleNodesToFind(int numAllNodes) {
    if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND || percentageOfNodesToScore >= 100) {
      return numAllNodes;
    }
    int pct = percentageOfNodesToScore;
    if (pct <= 0) {
      pct = 50 - numAllNodes / 125;
      if (pct < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) {
        pct = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
      }
    }
    int num = numAllNodes * pct / 100;
    return Math.max(num, MIN_FEASIBLE_NODES_TO_FIND);
  }

  /** The highest total score; ties broken uniformly at random (upstream reservoir sampling). */
  static String selectHost(List<NodeInfo> nodes, long[] scores, RandomGenerator random) {
    long best = Long.MIN_VALUE;
    String host = null;
    int ties = 0;
    for (int i = 0; i < scores.length; i++) {
      if (scores[i] > best) {
        best = scores[i];
        host = nodes.get(i).name();
        ties = 1;
      } else if (scores[i] == best) {
        ties++;
        if (random.nextInt(ties) == 0) {
          host = nodes.get(i).name();
        }
      }
    }
    return host;
  }

  static String describe(long[] scores) {
    return Arrays.toString(scores);
  }
}
