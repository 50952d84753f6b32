package io.jdra.scheduler.framework;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.jdra.allocator.NodeCache;
import java.util.ArrayList;
import java.util.List;

/**
 * A node with the pods the scheduler counts on it (bound and assumed) and what they request
 * (upstream {@code framework.NodeInfo}). Immutable: the scheduler cache replaces a NodeInfo when
 * anything on the node changes, so a snapshot is a list of references and plugins read it from any
 * thread without locks.
 */
public final class NodeInfo {
  private final Node node;
  private final String name;
  private final Resource allocatable;
  private final Resource requested;
  private final Resource nonZeroRequested;
  private final List<PodInfo> pods;
  private final long generation;

  /**
   * {@code spec.unschedulable}, read once per Node object: NodeUnschedulable asks on every node of
   * every cycle, and the Node's spec is otherwise touched by no plugin in the common case.
   */
  private final boolean unschedulable;

  /**
   * {@code spec.taints} (empty when none), read once per Node object for the same reason: every
   * Filter of every pod asks, and most nodes have none.
   */
  private final List<Taint> taints;

  /**
   * Allocatable minus requested for pods, cpu, memory and ephemeral storage, worked out when the
   * node's info is replaced: Fit's check on every node of every cycle then reads this object only,
   * not the two Resource objects and the pod list (each a cache miss once other threads ran).
   */
  private final long freePods;

  private final long freeMilliCpu;
  private final long freeMemory;
  private final long freeEphemeralStorage;

  /**
   * What the DRA allocator remembers about this node (its pools and devices), handed on to every
   * later NodeInfo of this name: Filter finds them through here instead of a lookup by node name
   * per node and pod. The one mutable part, a cache that never changes what plugins see.
   */
  private final NodeCache allocatorCache;

  private NodeInfo(
      Node node,
      String name,
      Resource allocatable,
      Resource requested,
      Resource nonZeroRequested,
      List<PodInfo> pods,
      long generation,
      NodeCache allocatorCache) {
    this.allocatorCache = allocatorCache;
    this.node = node;
    this.name = name;
    this.allocatable = allocatable;
    this.requested = requested;
    this.nonZeroRequested = nonZeroRequested;
    this.pods = pods;
    this.generation = generation;
    this.unschedulable =
        node != null
            && node.getSpec() != null
            && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    this.taints =
        node == null
                || node.getSpec() == null
                || node.getSpec().getTaints() == null
                || node.getSpec().getTaints().isEmpty()
            ? List.of()
            : node.getSpec().getTaints();
    this.freePods = allocatable.allowedPodNumber() - pods.size();
    this.freeMilliCpu = allocatable.milliCpu() - requested.milliCpu();
    this.freeMemory = allocatable.memory() - requested.memory();
    this.freeEphemeralStorage = allocatable.ephemeralStorage() - requested.ephemeralStorage();
  }

  /** A node without pods. */
  public static NodeInfo of(Node node) {
    return new NodeInfo(
        node,
        node.getMetadata().getName(),
        allocatable(node),
        Resource.ZERO,
        Resource.ZERO,
        List.of(),
        0,
        new NodeCache());
  }

  /** Pods known before their node (name only, no Node object yet). */
  public static NodeInfo placeholder(String name) {
    return new NodeInfo(
        null, name, Resource.ZERO, Resource.ZERO, Resource.ZERO, List.of(), 0, new NodeCache());
  }

  /** This NodeInfo with another Node object (same pods). */
  public NodeInfo withNode(Node n, long gen) {
    return new NodeInfo(
        n,
        name,
        n == null ? Resource.ZERO : allocatable(n),
        requested,
        nonZeroRequested,
        pods,
        gen,
        allocatorCache);
  }

  public NodeInfo withPod(PodInfo p, long gen) {
    List<PodInfo> ps = new ArrayList<>(pods.size() + 1);
    ps.addAll(pods);
    ps.add(p);
    return new NodeInfo(
        node,
        name,
        allocatable,
        requested.plus(p.request()),
        nonZeroRequested.plus(p.nonZeroRequest()),
        List.copyOf(ps),
        gen,
        allocatorCache);
  }

  /** Without the pod with this UID; this same object when it is not here. */
  public NodeInfo withoutPod(String uid, long gen) {
    for (int i = 0; i < pods.size(); i++) {
      PodInfo p = pods.get(i);
      if (uid.equals(p.uid())) {
        List<PodInfo> ps = new ArrayList<>(pods);
        ps.remove(i);
        return new NodeInfo(
            node,
            name,
            allocatable,
            requested.minus(p.request()),
            nonZeroRequested.minus(p.nonZeroRequest()),
            List.copyOf(ps),
            gen,
            allocatorCache);
      }
    }
    return this;
  }

  /** The Node, or null while only pods bound to this name are known. */
  public Node node() {
    return node;
  }

  public String name() {
    return name;
  }

  /** Whether the Node is cordoned ({@code spec.unschedulable}); false without a Node. */
  public boolean unschedulable() {
    return unschedulable;
  }

  /** The Node's {@code spec.taints}; empty without a Node or taints. */
  public List<Taint> taints() {
    return taints;
  }

  public Resource allocatable() {
    return allocatable;
  }

  /** Sum of the requests of the pods on the node. */
  public Resource requested() {
    return requested;
  }

  /** As {@link #requested()} with the non-zero defaults, for scoring. */
  public Resource nonZeroRequested() {
    return nonZeroRequested;
  }

  /** Where the DRA allocator keeps what it learned about this node (see {@link NodeCache}). */
  public NodeCache allocatorCache() {
    return allocatorCache;
  }

  /** {@code allocatable().allowedPodNumber()} minus the number of pods. */
  public long freePods() {
    return freePods;
  }

  /** {@code allocatable().milliCpu() - requested().milliCpu()}. */
  public long freeMilliCpu() {
    return freeMilliCpu;
  }

  /** {@code allocatable().memory() - requested().memory()}. */
  public long freeMemory() {
    return freeMemory;
  }

  /** {@code allocatable().ephemeralStorage() - requested().ephemeralStorage()}. */
  public long freeEphemeralStorage() {
    return freeEphemeralStorage;
  }

  public List<PodInfo> pods() {
    return pods;
  }

  /** Changes whenever the cache replaces this node's info. */
  public long generation() {
    return generation;
  }

  private static Resource allocatable(Node n) {
    if (n.getStatus() == null) {
      return Resource.ZERO;
    }
    return Resource.of(n.getStatus().getAllocatable());
  }
}
