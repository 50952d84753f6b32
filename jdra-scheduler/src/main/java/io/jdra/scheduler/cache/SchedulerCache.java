package io.jdra.scheduler.cache;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.jdra.scheduler.framework.NodeInfo;
import io.jdra.scheduler.framework.PodInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the scheduler believes is on each node (upstream {@code internal/cache}): nodes from the
 * informer, pods bound to them, and pods the scheduler assumed on a node before the binding is
 * confirmed. An assumed pod counts at once, so the next attempt does not place a pod on resources
 * already promised; it is confirmed by the informer's add of the bound pod, or forgotten when
 * binding fails. Thread-safe (one lock); {@link #snapshot()} is a cheap, immutable view.
 */
public final class SchedulerCache {
  private final Object lock = new Object();

  /** Node name -> info, in the order nodes were added (snapshot order). */
  private final Map<String, NodeInfo> nodes = new LinkedHashMap<>();

  /** Pod uid -> node name, for bound and assumed pods. */
  private final Map<String, String> podNodes = new HashMap<>();

  private final Set<String> assumed = new HashSet<>();
  private long generation;
  private Snapshot snapshot = Snapshot.EMPTY;
  private boolean dirty;

  /**
   * Nodes whose pods changed since the last snapshot, when nothing else did: the next snapshot then
   * copies the last one's array and replaces those entries (every assumed pod makes a new snapshot;
   * walking all nodes for it was a share of the scheduling loop). Null after a change of the node
   * set or a Node object: the next snapshot is made anew.
   */
  private Set<String> podChanges = new HashSet<>();

  /** Position of each node in {@link #snapshot}'s list, for {@link #podChanges}. */
  private Map<String, Integer> positions = Map.of();

  public void addNode(Node node) {
    synchronized (lock) {
      String name = node.getMetadata().getName();
      NodeInfo cur = nodes.get(name);
      nodes.put(
          name,
          cur == null
              ? NodeInfo.of(node).withNode(node, ++generation)
              : cur.withNode(node, ++generation));
      dirty = true;
      podChanges = null;
    }
  }

  public void updateNode(Node node) {
    addNode(node);
  }

  public void removeNode(Node node) {
    synchronized (lock) {
      String name = node.getMetadata().getName();
      NodeInfo cur = nodes.get(name);
      if (cur == null) {
        return;
      }
      if (cur.pods().isEmpty()) {
        nodes.remove(name);
      } else {
        // Pods still point at the node; keep their accounting until they go.
        nodes.put(name, cur.withNode(null, ++generation));
      }
      dirty = true;
      podChanges = null;
    }
  }

  /** Counts the pod on {@code nodeName} before the binding is written. */
  public void assumePod(PodInfo pod, String nodeName) {
    synchronized (lock) {
      if (podNodes.containsKey(pod.uid())) {
        throw new IllegalStateException("pod " + pod.key() + " is already in the cache");
      }
      addPodLocked(pod, nodeName);
      assumed.add(pod.uid());
    }
  }

  /** Undoes {@link #assumePod} after a failed binding. */
  public void forgetPod(PodInfo pod) {
    synchronized (lock) {
      if (assumed.remove(pod.uid())) {
        removePodLocked(pod.uid());
      }
    }
  }

  public boolean isAssumed(String uid) {
    synchronized (lock) {
      return assumed.contains(uid);
    }
  }

  /** Whether the pod counts on a node (assumed or bound). */
  public boolean contains(String uid) {
    synchronized (lock) {
      return podNodes.containsKey(uid);
    }
  }

  /** A pod bound to a node (informer): confirms an assumed pod or adds it. */
  public void addPod(Pod pod) {
    String node = pod.getSpec().getNodeName();
    if (node == null || node.isEmpty()) {
      return;
    }
    synchronized (lock) {
      String uid = pod.getMetadata().getUid();
      String cur = podNodes.get(uid);
      if (cur != null) {
        removePodLocked(uid);
      }
      assumed.remove(uid);
      addPodLocked(new PodInfo(pod), node);
    }
  }

  public void updatePod(Pod pod) {
    if (isTerminal(pod)) {
      removePod(pod);
      return;
    }
    addPod(pod);
  }

  public void removePod(Pod pod) {
    synchronized (lock) {
      String uid = pod.getMetadata().getUid();
      assumed.remove(uid);
      removePodLocked(uid);
    }
  }

  private void addPodLocked(PodInfo pod, String nodeName) {
    NodeInfo cur = nodes.get(nodeName);
    if (cur == null) {
      cur = NodeInfo.placeholder(nodeName);
    }
    nodes.put(nodeName, cur.withPod(pod, ++generation));
    podNodes.put(pod.uid(), nodeName);
    podChanged(nodeName);
  }

  private void removePodLocked(String uid) {
    String nodeName = podNodes.remove(uid);
    if (nodeName == null) {
      return;
    }
    NodeInfo cur = nodes.get(nodeName);
    if (cur == null) {
      return;
    }
    NodeInfo next = cur.withoutPod(uid, ++generation);
    if (next.node() == null && next.pods().isEmpty()) {
      nodes.remove(nodeName);
    } else {
      nodes.put(nodeName, next);
    }
    podChanged(nodeName);
    dirty = true;
  }

  /** Nodes (with a Node object) and their pods as of now; reused while nothing changed. */
  public Snapshot snapshot() {
    synchronized (lock) {
      if (dirty) {
        snapshot = podChanges != null ? withPodChanges() : fullSnapshot();
        podChanges = new HashSet<>();
        dirty = false;
      }
      return snapshot;
    }
  }

  private Snapshot fullSnapshot() {
    List<NodeInfo> list = new ArrayList<>(nodes.size());
    Map<String, Integer> at = new HashMap<>(nodes.size() * 2);
    for (NodeInfo n : nodes.values()) {
      if (n.node() != null) {
        at.put(n.name(), list.size());
        list.add(n);
      }
    }
    positions = at;
    return new Snapshot(list, generation);
  }

  /** The last snapshot with the nodes whose pods changed replaced; the same order. */
  private Snapshot withPodChanges() {
    NodeInfo[] next = snapshot.nodes().toArray(NodeInfo[]::new);
    for (String name : podChanges) {
      Integer i = positions.get(name);
      NodeInfo n = nodes.get(name);
      // Pods of a node without a Node object are not in snapshots.
      if (i != null && n != null) {
        next[i] = n;
      }
    }
    return new Snapshot(next, generation);
  }

  private void podChanged(String nodeName) {
    dirty = true;
    if (podChanges != null) {
      podChanges.add(nodeName);
    }
  }

  public int nodeCount() {
    return snapshot().nodes().size();
  }

  /** Upstream: succeeded and failed pods free their resources. */
  public static boolean isTerminal(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }
}
