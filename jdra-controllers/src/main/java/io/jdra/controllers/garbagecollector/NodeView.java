package io.jdra.controllers.garbagecollector;

import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.List;

/** An immutable snapshot of a graph node, for workers that call the API server without a lock. */
record NodeView(
    ObjectIdentity identity,
    List<OwnerReference> owners,
    List<Dependent> dependents,
    boolean virtual,
    boolean beingDeleted,
    boolean deletingDependents) {
  /** A dependent as its owner sees it. */
  record Dependent(
      ObjectIdentity identity,
      boolean blocksOwner,
      boolean beingDeleted,
      boolean deletingDependents) {}

  NodeView {
    owners = List.copyOf(owners);
    dependents = List.copyOf(dependents);
  }

  /** Upstream's {@code blockingDependents}. */
  List<Dependent> blockingDependents() {
    return dependents.stream().filter(Dependent::blocksOwner).toList();
  }
}
