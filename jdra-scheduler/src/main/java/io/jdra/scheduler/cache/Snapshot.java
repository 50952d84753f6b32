package io.jdra.scheduler.cache;

import io.jdra.scheduler.framework.NodeInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The nodes as one scheduling cycle sees them (upstream {@code cache.Snapshot}). Immutable. */
public final class Snapshot {
  static final Snapshot EMPTY = new Snapshot(List.of(), 0);

  private final List<NodeInfo> nodes;
  private final Map<String, NodeInfo> byName;
  private final long generation;

  public Snapshot(List<NodeInfo> nodes, long generation) {
    this.nodes = List.copyOf(nodes);
    this.byName = new HashMap<>(nodes.size() * 2);
    for (NodeInfo n : nodes) {
      byName.put(n.name(), n);
    }
    this.generation = generation;
  }

  public List<NodeInfo> nodes() {
    return nodes;
  }

  public NodeInfo get(String name) {
    return byName.get(name);
  }

  public long generation() {
    return generation;
  }
}
