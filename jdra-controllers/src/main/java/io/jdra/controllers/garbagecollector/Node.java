package io.jdra.controllers.garbagecollector;

import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One object in the dependency graph (upstream's {@code node}). Mutable, and touched only under the
 * {@link GraphBuilder}'s lock; workers read {@link NodeView} snapshots.
 */
final class Node {
  ObjectIdentity identity;
  List<OwnerReference> owners;
  final Set<Node> dependents = new LinkedHashSet<>();

  /** Known only as someone's owner, not yet observed by an informer. */
  boolean virtual;

  boolean beingDeleted;

  /** Being deleted in the foreground: waits for its blocking dependents. */
  boolean deletingDependents;

  Node(ObjectIdentity identity, List<OwnerReference> owners, boolean virtual) {
    this.identity = identity;
    this.owners = List.copyOf(owners);
    this.virtual = virtual;
  }

  /** Whether {@code dep} names this node as owner with {@code blockOwnerDeletion: true}. */
  boolean blockedBy(Node dep) {
    for (OwnerReference r : dep.owners) {
      if (r.getUid().equals(identity.uid()) && Boolean.TRUE.equals(r.getBlockOwnerDeletion())) {
        return true;
      }
    }
    return false;
  }

  NodeView view() {
    List<NodeView.Dependent> deps =
        dependents.stream()
            .map(d ->
                new NodeView.Dependent(
                    d.identity, blockedBy(d), d.beingDeleted, d.deletingDependents))
            .toList();
    return new NodeView(identity, owners, deps, virtual, beingDeleted, deletingDependents);
  }
}
