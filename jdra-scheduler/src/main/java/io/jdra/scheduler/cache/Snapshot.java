package io.jdra.scheduler.cache;

import io.jdra.scheduler.framework.NodeInfo;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The nodes as one scheduling cycle sees them (upstream {@code cache.Snapshot}). Immutable. */
public final class Snapshot {
  static final Snapshot EMPTY = new Snapshot(List.of(), 0);

  private final List<NodeInfo> nodes;
  private final long generation;

  /**
   * Nodes by name, made on the first {@link #get}: a cycle looks nodes up by name only when a
   * PreFilter plugin narrowed the nodes, and every assumed pod makes a new snapshot.
   */
  private volatile Map<String, NodeInfo> byName;

  public Snapshot(List<NodeInfo> nodes, long generation) {
    this.nodes = List.copyOf(nodes);
    this.generation = generation;
  }

  /** Over this array, which nobody changes afterwards (no copy). */
  Snapshot(NodeInfo[] nodes, long generation) {
    this.nodes = Collections.unmodifiableList(Arrays.asList(nodes));
    this.generation = generation;
  }

  public List<NodeInfo> nodes() {
    return nodes;
  }

  public NodeInfo get(String name) {
    Map<String, NodeInfo> m = byName;
    if (m == null) {
      // Racing threads build equal maps; each is complete before it is published.
      m = new HashMap<>(nodes.size() * 2);
      for (NodeInfo n : nodes) {
        m.put(n.name(), n);
      }
      byName = m;
    }
    return m.get(name);
  }

  public long generation() {
    return generation;
  }
}
