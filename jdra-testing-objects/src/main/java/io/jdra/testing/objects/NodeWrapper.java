package io.jdra.testing.objects;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;

/** Builds a Node (upstream {@code NodeWrapper}). */
public final class NodeWrapper {
  private final NodeBuilder b = new NodeBuilder();

  NodeWrapper(String name) {
    b.withNewMetadata().withName(name).endMetadata();
  }

  public NodeWrapper uid(String uid) {
    b.editMetadata().withUid(uid).endMetadata();
    return this;
  }

  public NodeWrapper labels(String... kv) {
    b.editMetadata().addToLabels(Make.pairs(kv)).endMetadata();
    return this;
  }

  /** Allocatable (and capacity) quantities: name, quantity pairs. */
  public NodeWrapper allocatable(String... resourceQuantity) {
    java.util.Map<String, io.fabric8.kubernetes.api.model.Quantity> q = new java.util.TreeMap<>();
    Make.pairs(resourceQuantity)
        .forEach((k, v) -> q.put(k, new io.fabric8.kubernetes.api.model.Quantity(v)));
    b.editOrNewStatus().withAllocatable(q).withCapacity(q).endStatus();
    return this;
  }

  public Node obj() {
    return new NodeBuilder(b.build()).build();
  }
}
