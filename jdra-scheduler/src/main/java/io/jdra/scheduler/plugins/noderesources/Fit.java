package io.jdra.scheduler.plugins.noderesources;

import io.jdra.runtime.Ctx;
import io.jdra.scheduler.framework.ClusterEvent;
import io.jdra.scheduler.framework.CycleState;
import io.jdra.scheduler.framework.EnqueueExtensions;
import io.jdra.scheduler.framework.FilterPlugin;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import io.jdra.scheduler.framework.QueueingHint;
import io.jdra.scheduler.framework.Resource;
import io.jdra.scheduler.framework.ScorePlugin;
import io.jdra.scheduler.framework.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Upstream NodeResourcesFit: the pod's requests (cpu, memory, ephemeral storage, extended
 * resources) and one more pod must fit the node's allocatable minus what its pods request; scored
 * with the LeastAllocated strategy over cpu and memory (weight 1 each). Extended resources that a
 * DeviceClass maps to DRA ({@code DRAExtendedResource}) and that the node does not advertise are
 * left to DynamicResources.
 */
public final class Fit implements FilterPlugin, ScorePlugin, EnqueueExtensions {
  public static final String NAME = "NodeResourcesFit";

  private final Predicate<String> draBacked;

  /**
   * @param draBacked whether an extended resource name is backed by a DRA DeviceClass
   */
  public Fit(Predicate<String> draBacked) {
    this.draBacked = draBacked;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node) {
    if (fitsWithoutScalars(pod.request(), node)) {
      return null;
    }
    List<String> reasons = insufficient(pod.request(), node);
    return reasons.isEmpty() ? null : Status.unschedulable(reasons.toArray(String[]::new));
  }

  /**
   * Whether a pod without scalar requests fits, from the amounts the node's info keeps (the common
   * case, no list made); false when {@link #insufficient} must decide. Equal to {@code
   * insufficient(req, node).isEmpty()} when true (FitFastPathTest).
   */
  static boolean fitsWithoutScalars(Resource req, NodeInfo node) {
    return req.scalar().isEmpty()
        && node.freePods() >= 1
        && (req.milliCpu() <= 0 || req.milliCpu() <= node.freeMilliCpu())
        && (req.memory() <= 0 || req.memory() <= node.freeMemory())
        && (req.ephemeralStorage() <= 0 || req.ephemeralStorage() <= node.freeEphemeralStorage());
  }

  /** Upstream's reasons, in its order: pods, cpu, memory, ephemeral-storage, scalars. */
  List<String> insufficient(Resource req, NodeInfo node) {
    List<String> out = new ArrayList<>(0);
    Resource alloc = node.allocatable();
    Resource used = node.requested();
    if (node.pods().size() + 1 > alloc.allowedPodNumber()) {
      out.add("Too many pods");
    }
    if (req.milliCpu() > 0 && req.milliCpu() > alloc.milliCpu() - used.milliCpu()) {
      out.add("Insufficient cpu");
    }
    if (req.memory() > 0 && req.memory() > alloc.memory() - used.memory()) {
      out.add("Insufficient memory");
    }
    if (req.ephemeralStorage() > 0
        && req.ephemeralStorage() > alloc.ephemeralStorage() - used.ephemeralStorage()) {
      out.add("Insufficient ephemeral-storage");
    }
    if (req.scalar().isEmpty()) {
      return out; // most pods: no sorted copy of an empty map per node
    }
    for (Map.Entry<String, Long> e : new java.util.TreeMap<>(req.scalar()).entrySet()) {
      String name = e.getKey();
      if (e.getValue() == 0) {
        continue;
      }
      if (!alloc.scalar().containsKey(name) && draBacked.test(name)) {
        continue;
      }
      if (e.getValue() > alloc.scalar(name) - used.scalar(name)) {
        out.add("Insufficient " + name);
      }
    }
    return out;
  }

  @Override
  public long score(Ctx ctx, CycleState state, PodInfo pod, NodeInfo node) {
    // Summed per dimension rather than with Resource.plus: this runs for every feasible node of
    // every pod, and only cpu and memory count.
    Resource alloc = node.allocatable();
    Resource onNode = node.nonZeroRequested();
    Resource req = pod.nonZeroRequest();
    long cpu = leastAllocated(onNode.milliCpu() + req.milliCpu(), alloc.milliCpu());
    long mem = leastAllocated(onNode.memory() + req.memory(), alloc.memory());
    return (cpu + mem) / 2;
  }

  /** Upstream leastRequestedScore: free share of capacity, 0..100. */
  static long leastAllocated(long requested, long capacity) {
    if (capacity == 0 || requested > capacity) {
      return 0;
    }
    return (capacity - requested) * MAX_NODE_SCORE / capacity;
  }

  @Override
  public List<QueueingHint.EventWithHint> eventsToRegister() {
    return List.of(
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.NODE,
                ClusterEvent.ADD | ClusterEvent.UPDATE_NODE_ALLOCATABLE,
                "NodeAllocatableChange"),
            null),
        new QueueingHint.EventWithHint(
            ClusterEvent.of(
                ClusterEvent.EventResource.ASSIGNED_POD,
                ClusterEvent.DELETE | ClusterEvent.UPDATE_POD_SCALE_DOWN,
                "AssignedPodDelete"),
            null));
  }
}
