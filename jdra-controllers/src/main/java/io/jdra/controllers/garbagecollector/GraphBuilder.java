package io.jdra.controllers.garbagecollector;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.logging.Logger;
import io.jdra.runtime.workqueue.RateLimitingQueue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The dependency graph (upstream's {@code GraphBuilder}): informer handlers put {@link GraphEvent}s
 * on {@link #graphChanges}; one thread applies them in order ({@link #processGraphChanges}),
 * linking each object to its owners (a virtual node stands for an owner not observed yet) and
 * queueing the work the change calls for: dependents of a deleted owner and unobserved owners to
 * {@code attemptToDelete}, owners deleted with {@code orphan} to {@code attemptToOrphan}, owners
 * deleted in the foreground together with their dependents to {@code attemptToDelete}. Workers read
 * {@link NodeView} snapshots; the lock is never held across an API call.
 */
final class GraphBuilder {
  private final Map<String, Node> uidToNode = new HashMap<>();
  private final BlockingQueue<GraphEvent> graphChanges = new LinkedBlockingQueue<>();
  private final RateLimitingQueue<String> attemptToDelete;
  private final RateLimitingQueue<String> attemptToOrphan;

  GraphBuilder(
      RateLimitingQueue<String> attemptToDelete, RateLimitingQueue<String> attemptToOrphan) {
    this.attemptToDelete = attemptToDelete;
    this.attemptToOrphan = attemptToOrphan;
  }

  /** From informer handlers and workers: never blocks. */
  void enqueue(GraphEvent e) {
    graphChanges.add(e);
  }

  void enqueueVirtualDelete(ObjectIdentity identity) {
    enqueue(GraphEvent.virtualDelete(identity));
  }

  /** Applies graph changes until {@code ctx} is cancelled. */
  void run(Ctx ctx) throws InterruptedException {
    while (!ctx.isCancelled()) {
      GraphEvent e = graphChanges.poll(100, TimeUnit.MILLISECONDS);
      if (e != null) {
        processGraphChanges(ctx.logger(), e);
      }
    }
  }

  /** Queues a blocking dependent of an owner deleted in the foreground. */
  void attemptToDelete(String uid) {
    attemptToDelete.add(uid);
  }

  synchronized NodeView view(String uid) {
    Node n = uidToNode.get(uid);
    return n == null ? null : n.view();
  }

  synchronized boolean isObserved(String uid) {
    Node n = uidToNode.get(uid);
    return n != null && !n.virtual;
  }

  synchronized int size() {
    return uidToNode.size();
  }

  synchronized void processGraphChanges(Logger log, GraphEvent e) {
    ObjectMeta obj = e.obj();
    String uid = obj.identity().uid();
    Node existing = uidToNode.get(uid);
    log.v(5)
        .info(
            "GraphBuilder process object",
            "object",
            obj.identity(),
            "event",
            e.type(),
            "virtual",
            existing != null && existing.virtual);
    switch (e.type()) {
      case ADD, UPDATE -> {
        if (existing == null) {
          Node n = new Node(obj.identity(), obj.owners(), false);
          n.beingDeleted = obj.beingDeleted();
          n.deletingDependents = obj.deletingWith(ObjectMeta.FINALIZER_DELETE_DEPENDENTS);
          uidToNode.put(uid, n);
          addDependentToOwners(n, obj.owners());
          processTransitions(e.old(), obj, n);
        } else {
          update(existing, e);
        }
      }
      case DELETE, VIRTUAL_DELETE -> {
        if (existing != null && removable(existing, e)) {
          removeNode(existing);
        }
      }
    }
  }

  private void update(Node n, GraphEvent e) {
    ObjectMeta obj = e.obj();
    if (n.virtual) {
      // Observed at last: the object's own coordinates replace the owner reference's.
      n.virtual = false;
      n.identity = obj.identity();
    }
    List<OwnerReference> added = new ArrayList<>();
    List<OwnerReference> removed = new ArrayList<>();
    List<OwnerReference> changed = new ArrayList<>();
    referencesDiffs(n.owners, obj.owners(), added, removed, changed);
    if (!added.isEmpty() || !removed.isEmpty() || !changed.isEmpty()) {
      addUnblockedOwnersToDeleteQueue(removed, changed, obj.owners());
      n.owners = obj.owners();
      addDependentToOwners(n, added);
      for (OwnerReference r : removed) {
        Node owner = uidToNode.get(r.getUid());
        if (owner != null) {
          owner.dependents.remove(n);
        }
      }
    }
    if (obj.beingDeleted()) {
      n.beingDeleted = true;
    }
    processTransitions(e.old(), obj, n);
  }

  /**
   * A virtual delete removes a virtual node, or a real one whose coordinates it names; an informer
   * delete always removes.
   */
  private static boolean removable(Node n, GraphEvent e) {
    if (e.type() == GraphEvent.Type.DELETE || n.virtual) {
      return true;
    }
    return n.identity.equals(e.obj().identity());
  }

  private void removeNode(Node n) {
    uidToNode.remove(n.identity.uid());
    for (OwnerReference r : n.owners) {
      Node owner = uidToNode.get(r.getUid());
      if (owner != null) {
        owner.dependents.remove(n);
      }
    }
    for (Node dep : n.dependents) {
      attemptToDelete.add(dep.identity.uid());
    }
    for (OwnerReference r : n.owners) {
      Node owner = uidToNode.get(r.getUid());
      if (owner != null && owner.deletingDependents) {
        // It may have been the last dependent the owner waited for.
        attemptToDelete.add(owner.identity.uid());
      }
    }
  }

  private void addDependentToOwners(Node n, List<OwnerReference> owners) {
    for (OwnerReference r : owners) {
      Node owner = uidToNode.get(r.getUid());
      if (owner == null) {
        owner = new Node(ObjectIdentity.ofOwner(r, n.identity.namespace()), List.of(), true);
        uidToNode.put(r.getUid(), owner);
        // A worker asks the API server whether it exists; if not, a virtual delete follows.
        attemptToDelete.add(r.getUid());
      }
      owner.dependents.add(n);
    }
  }

  /**
   * Owners waiting in the foreground for this object may go once it no longer blocks them: its
   * reference was removed or lost {@code blockOwnerDeletion}.
   */
  private void addUnblockedOwnersToDeleteQueue(
      List<OwnerReference> removed, List<OwnerReference> changed, List<OwnerReference> now) {
    for (OwnerReference r : removed) {
      if (Boolean.TRUE.equals(r.getBlockOwnerDeletion())) {
        enqueueIfDeletingDependents(r.getUid());
      }
    }
    for (OwnerReference old : changed) {
      boolean wasBlocking = Boolean.TRUE.equals(old.getBlockOwnerDeletion());
      boolean blocks =
          now.stream()
              .anyMatch(r ->
                  r.getUid().equals(old.getUid())
                      && Boolean.TRUE.equals(r.getBlockOwnerDeletion()));
      if (wasBlocking && !blocks) {
        enqueueIfDeletingDependents(old.getUid());
      }
    }
  }

  private void enqueueIfDeletingDependents(String ownerUid) {
    Node owner = uidToNode.get(ownerUid);
    if (owner != null && owner.deletingDependents) {
      attemptToDelete.add(ownerUid);
    }
  }

  /** Upstream's {@code processTransitions}: deletion with orphan or foreground just started. */
  private void processTransitions(ObjectMeta old, ObjectMeta obj, Node n) {
    if (startsWith(old, obj, ObjectMeta.FINALIZER_ORPHAN)) {
      attemptToOrphan.add(n.identity.uid());
      return;
    }
    if (startsWith(old, obj, ObjectMeta.FINALIZER_DELETE_DEPENDENTS)) {
      n.deletingDependents = true;
      for (Node dep : n.dependents) {
        attemptToDelete.add(dep.identity.uid());
      }
      attemptToDelete.add(n.identity.uid());
    }
  }

  private static boolean startsWith(ObjectMeta old, ObjectMeta obj, String finalizer) {
    return obj.deletingWith(finalizer) && (old == null || !old.deletingWith(finalizer));
  }

  /** Upstream's {@code referencesDiffs}, by UID. */
  static void referencesDiffs(
      List<OwnerReference> old,
      List<OwnerReference> now,
      List<OwnerReference> added,
      List<OwnerReference> removed,
      List<OwnerReference> changed) {
    Map<String, OwnerReference> oldByUid = new HashMap<>();
    old.forEach(r -> oldByUid.put(r.getUid(), r));
    for (OwnerReference r : now) {
      OwnerReference before = oldByUid.remove(r.getUid());
      if (before == null) {
        added.add(r);
      } else if (!Objects.equals(before, r)) {
        changed.add(before);
      }
    }
    removed.addAll(oldByUid.values());
  }
}
