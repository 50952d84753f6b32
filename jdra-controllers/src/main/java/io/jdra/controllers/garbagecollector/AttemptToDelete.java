package io.jdra.controllers.garbagecollector;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.jdra.controllers.controllerutil.QueueWorkers;
import io.jdra.runtime.Ctx;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The workers' decisions (upstream's {@code attemptToDeleteItem}, {@code
 * processDeletingDependentsItem} and {@code attemptToOrphanWorker}), each on a live read of the
 * object and its owners: a dependent whose owners are all gone is deleted (with the policy its own
 * finalizers ask for); one with a live owner only loses its dangling references; an owner deleted
 * in the foreground loses {@code foregroundDeletion} once no dependent blocks it, after its
 * blocking dependents were deleted; an owner deleted with {@code orphan} loses its dependents'
 * references, then the finalizer. Thread-safe: state is the graph and the API server.
 */
final class AttemptToDelete {
  private final GraphBuilder graph;
  private final MetadataClient client;
  private final AbsentOwnerCache absentOwners;

  AttemptToDelete(GraphBuilder graph, MetadataClient client, AbsentOwnerCache absentOwners) {
    this.graph = graph;
    this.client = client;
    this.absentOwners = absentOwners;
  }

  /** One key of {@code attemptToDelete}. Throws to be retried with backoff. */
  void attemptToDeleteWorker(Ctx ctx, String uid) {
    NodeView n = graph.view(uid);
    if (n == null) {
      return;
    }
    boolean virtualDeleteQueued;
    try {
      virtualDeleteQueued = attemptToDeleteItem(ctx, n);
    } catch (MetadataClient.NamespacedOwnerOfClusterScopedObjectException e) {
      // Retrying cannot resolve it: forget the item.
      ctx.logger().v(2).info("Item is not processed", "item", n.identity(), "err", e.getMessage());
      return;
    }
    if (!virtualDeleteQueued && n.virtual() && !graph.isObserved(uid)) {
      // It exists but no informer has shown it yet: look again later, so that a virtual node of
      // an object added and removed while a watch was down does not stay in the graph.
      throw new QueueWorkers.Requeue();
    }
  }

  /** Returns whether a virtual delete was queued for {@code item}. */
  boolean attemptToDeleteItem(Ctx ctx, NodeView item) {
    var log = ctx.logger();
    log.v(2).info("Processing item", "item", item.identity(), "virtual", item.virtual());
    if (item.beingDeleted() && !item.deletingDependents()) {
      log.v(5)
          .info("Processing item returned at once, it is being deleted", "item", item.identity());
      return false;
    }
    ObjectMeta latest = client.get(item.identity());
    if (latest == null || !latest.identity().uid().equals(item.identity().uid())) {
      log.v(5).info("Item not found, generating a virtual delete event", "item", item.identity());
      graph.enqueueVirtualDelete(item.identity());
      return true;
    }
    if (item.deletingDependents()) {
      processDeletingDependentsItem(ctx, item, latest);
      return false;
    }
    if (latest.owners().isEmpty()) {
      return false;
    }
    Classified c = classify(ctx, latest);
    log.v(5)
        .info(
            "Classified references",
            "item",
            item.identity(),
            "solid",
            uids(c.solid),
            "dangling",
            uids(c.dangling),
            "waitingForDependentsDeletion",
            uids(c.waiting));
    if (!c.solid.isEmpty()) {
      if (c.dangling.isEmpty() && c.waiting.isEmpty()) {
        return false;
      }
      // A live owner keeps the object; the references to absent or leaving owners go.
      Set<String> drop = uids(c.dangling);
      drop.addAll(uids(c.waiting));
      log.v(2)
          .info(
              "Object has at least one existing owner, removing others",
              "item",
              item.identity(),
              "owners",
              drop);
      List<OwnerReference> kept =
          latest.owners().stream().filter(r -> !drop.contains(r.getUid())).toList();
      client.patchOwners(latest.identity(), latest.resourceVersion(), kept);
      return false;
    }
    if (!c.waiting.isEmpty() && !item.dependents().isEmpty()) {
      if (item.dependents().stream().anyMatch(NodeView.Dependent::deletingDependents)) {
        // Two objects deleted in the foreground that wait on each other would wait forever:
        // this one stops blocking its owners before it goes.
        client.patchOwners(latest.identity(), latest.resourceVersion(), unblocked(latest, c));
      }
      log.v(2)
          .info(
              "An owner waits for its dependents and the object has dependents; deleting"
                  + " it in the foreground",
              "item",
              item.identity());
      deleteObject(item.identity(), latest, "Foreground");
      return false;
    }
    String policy =
        latest.hasFinalizer(ObjectMeta.FINALIZER_ORPHAN)
            ? "Orphan"
            : latest.hasFinalizer(ObjectMeta.FINALIZER_DELETE_DEPENDENTS)
                ? "Foreground"
                : "Background";
    log.v(2).info("Deleting item", "item", item.identity(), "propagationPolicy", policy);
    deleteObject(item.identity(), latest, policy);
    return false;
  }

  private void deleteObject(ObjectIdentity id, ObjectMeta latest, String policy) {
    client.delete(id, latest.resourceVersion(), policy);
  }

  /** Owner references with {@code blockOwnerDeletion} cleared for the owners that wait. */
  private static List<OwnerReference> unblocked(ObjectMeta latest, Classified c) {
    Set<String> waiting = uids(c.waiting);
    return latest.owners().stream()
        .map(r ->
            waiting.contains(r.getUid())
                ? new OwnerReferenceBuilder(r).withBlockOwnerDeletion(false).build()
                : r)
        .toList();
  }

  private void processDeletingDependentsItem(Ctx ctx, NodeView item, ObjectMeta latest) {
    List<NodeView.Dependent> blocking = item.blockingDependents();
    if (blocking.isEmpty()) {
      ctx.logger()
          .v(2)
          .info(
              "Removing finalizer, no dependent blocks the owner any more",
              "item",
              item.identity(),
              "finalizer",
              ObjectMeta.FINALIZER_DELETE_DEPENDENTS);
      removeFinalizer(latest, ObjectMeta.FINALIZER_DELETE_DEPENDENTS);
      return;
    }
    for (NodeView.Dependent dep : blocking) {
      if (!dep.beingDeleted()) {
        ctx.logger()
            .v(2)
            .info(
                "Adding blocking dependent to attemptToDelete",
                "item",
                item.identity(),
                "dependent",
                dep.identity());
        graph.attemptToDelete(dep.identity().uid());
      }
    }
  }

  /** One key of {@code attemptToOrphan}. Throws to be retried with backoff. */
  void attemptToOrphan(Ctx ctx, String uid) {
    NodeView owner = graph.view(uid);
    if (owner == null) {
      return;
    }
    for (NodeView.Dependent dep : owner.dependents()) {
      ObjectMeta d = client.get(dep.identity());
      if (d == null || !d.identity().uid().equals(dep.identity().uid())) {
        continue;
      }
      List<OwnerReference> kept = d.owners().stream().filter(r -> !r.getUid().equals(uid)).toList();
      if (kept.size() != d.owners().size()) {
        client.patchOwners(d.identity(), d.resourceVersion(), kept);
      }
    }
    ObjectMeta latest = client.get(owner.identity());
    if (latest != null && latest.identity().uid().equals(uid)) {
      ctx.logger()
          .v(2)
          .info(
              "Orphaned dependents, removing finalizer",
              "owner",
              owner.identity(),
              "finalizer",
              ObjectMeta.FINALIZER_ORPHAN);
      removeFinalizer(latest, ObjectMeta.FINALIZER_ORPHAN);
    }
  }

  private void removeFinalizer(ObjectMeta latest, String finalizer) {
    if (!latest.hasFinalizer(finalizer)) {
      return;
    }
    List<String> kept = latest.finalizers().stream().filter(f -> !f.equals(finalizer)).toList();
    client.patchFinalizers(latest.identity(), latest.resourceVersion(), kept);
  }

  private record Classified(
      List<OwnerReference> solid, List<OwnerReference> dangling, List<OwnerReference> waiting) {}

  /** Upstream's {@code classifyReferences}, each owner read live (absent ones cached). */
  private Classified classify(Ctx ctx, ObjectMeta item) {
    List<OwnerReference> solid = new ArrayList<>();
    List<OwnerReference> dangling = new ArrayList<>();
    List<OwnerReference> waiting = new ArrayList<>();
    for (OwnerReference r : item.owners()) {
      ObjectMeta owner = liveOwner(ctx, item, r);
      if (owner == null) {
        dangling.add(r);
      } else if (owner.deletingWith(ObjectMeta.FINALIZER_DELETE_DEPENDENTS)) {
        waiting.add(r);
      } else {
        solid.add(r);
      }
    }
    return new Classified(solid, dangling, waiting);
  }

  /**
   * Upstream's {@code isDangling}: the owner {@code r} names as it is now, or null when it is
   * absent (cached by coordinates, in the dependent's namespace for a namespaced kind). A
   * namespaced owner is looked up in the dependent's namespace only: one in another namespace is
   * absent to it.
   */
  private ObjectMeta liveOwner(Ctx ctx, ObjectMeta item, OwnerReference r) {
    ObjectIdentity clusterKey = ObjectIdentity.ofOwner(r, "");
    ObjectIdentity namespacedKey = ObjectIdentity.ofOwner(r, item.identity().namespace());
    if (absentOwners.has(clusterKey) || absentOwners.has(namespacedKey)) {
      ctx.logger()
          .v(5)
          .info(
              "According to the absentOwnerCache, item's owner does not exist",
              "item",
              item.identity(),
              "owner",
              r.getUid());
      return null;
    }
    ObjectIdentity key = client.mapping(namespacedKey).namespaced() ? namespacedKey : clusterKey;
    ObjectMeta owner = client.get(key);
    if (owner == null || !owner.identity().uid().equals(r.getUid())) {
      absentOwners.add(key);
      ctx.logger().v(5).info("Item's owner is not found", "item", item.identity(), "owner", key);
      return null;
    }
    return owner;
  }

  private static Set<String> uids(List<OwnerReference> refs) {
    return refs.stream()
        .map(OwnerReference::getUid)
        .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
  }
}
