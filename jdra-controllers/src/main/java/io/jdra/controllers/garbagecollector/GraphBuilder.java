package io.jdra.controllers.garbagecollector;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.logging.Logger;
import io.jdra.runtime.record.EventRecorder;
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
 * deleted in the foreground together with their dependents to {@code attemptToDelete}, and
 * dependents whose references may not name the owner the graph knows (another namespace, other
 * coordinates) to {@code attemptToDelete} too, with an {@code OwnerRefInvalidNamespace} event when
 * the namespace is wrong. Workers read {@link NodeView} snapshots; the lock is never held across an
 * API call, and the event recorder never blocks.
 */
final class GraphBuilder {
  private final Map<String, Node> uidToNode = new HashMap<>();
  private final BlockingQueue<GraphEvent> graphChanges = new LinkedBlockingQueue<>();
  private final RateLimitingQueue<String> attemptToDelete;
  private final RateLimitingQueue<String> attemptToOrphan;
  private final AbsentOwnerCache absentOwners;
  private final EventRecorder recorder;

  GraphBuilder(
      RateLimitingQueue<String> attemptToDelete,
      RateLimitingQueue<String> attemptToOrphan,
      AbsentOwnerCache absentOwners,
      EventRecorder recorder) {
    this.attemptToDelete = attemptToDelete;
    this.attemptToOrphan = attemptToOrphan;
    this.absentOwners = absentOwners;
    this.recorder = recorder;
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
    if (existing != null && e.type() != GraphEvent.Type.VIRTUAL_DELETE && existing.virtual) {
      observed(log, existing, obj.identity());
    }
    switch (e.type()) {
      case ADD, UPDATE -> {
        if (existing == null) {
          Node n = new Node(obj.identity(), obj.owners(), false);
          n.beingDeleted = obj.beingDeleted();
          n.deletingDependents = obj.deletingWith(ObjectMeta.FINALIZER_DELETE_DEPENDENTS);
          uidToNode.put(uid, n);
          addDependentToOwners(log, n, obj.owners());
          processTransitions(e.old(), obj, n);
        } else {
          update(log, existing, e);
        }
      }
      case DELETE, VIRTUAL_DELETE -> {
        if (existing == null) {
          log.v(5).info("Item doesn't exist in the graph, this shouldn't happen", "item", uid);
        } else if (e.type() == GraphEvent.Type.DELETE || virtualDeleteRemoves(existing, obj)) {
          removeNode(existing, obj.identity());
        }
      }
    }
  }

  /**
   * An informer shows the object a virtual node stood for: its own coordinates replace those of the
   * first reference to it. Dependents whose reference does not match them are checked by a worker
   * (the bad child, good parent order; the other order is caught in {@link #addDependentToOwners}),
   * and one in another namespace than a namespaced owner is reported.
   */
  private void observed(Logger log, Node n, ObjectIdentity observed) {
    if (!observed.equals(n.identity)) {
      for (Node dep : OwnerIdentities.partition(n.dependents, observed).nonmatching()) {
        if (!observed.namespace().isEmpty()
            && !dep.identity.namespace().equals(observed.namespace())) {
          log.v(2)
              .info(
                  "Item references an owner but does not match namespaces",
                  "item",
                  dep.identity,
                  "owner",
                  observed);
          reportInvalidNamespaceOwnerRef(dep, observed.uid());
        }
        attemptToDelete.add(dep.identity.uid());
      }
      log.v(2)
          .info(
              "Replacing virtual item with observed item",
              "virtual",
              n.identity,
              "observed",
              observed);
      n.identity = observed;
    }
    n.virtual = false;
  }

  private void update(Logger log, Node n, GraphEvent e) {
    ObjectMeta obj = e.obj();
    List<OwnerReference> added = new ArrayList<>();
    List<OwnerReference> removed = new ArrayList<>();
    List<OwnerReference> changed = new ArrayList<>();
    referencesDiffs(n.owners, obj.owners(), added, removed, changed);
    if (!added.isEmpty() || !removed.isEmpty() || !changed.isEmpty()) {
      addUnblockedOwnersToDeleteQueue(removed, changed, obj.owners());
      n.owners = obj.owners();
      addDependentToOwners(log, n, added);
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
   * Upstream's virtual delete: a worker found {@code deleted} absent. The node goes unless some
   * dependents name its UID with other coordinates (then those that match are checked, the identity
   * remembered as absent, and a virtual node takes the next identity its dependents give it, to be
   * checked in turn) or it was observed with other coordinates than those found absent.
   */
  private boolean virtualDeleteRemoves(Node n, ObjectMeta obj) {
    ObjectIdentity deleted = obj.identity();
    OwnerIdentities.Partition p = OwnerIdentities.partition(n.dependents, deleted);
    if (n.virtual && p.nonmatching().isEmpty() || !n.virtual && n.identity.equals(deleted)) {
      return true;
    }
    if (!p.matching().isEmpty()) {
      absentOwners.add(deleted);
      p.matching().forEach(dep -> attemptToDelete.add(dep.identity.uid()));
    }
    if (n.virtual && n.identity.equals(deleted)) {
      ObjectIdentity replacement = OwnerIdentities.alternate(p.nonmatching(), deleted);
      if (replacement != null) {
        n.identity = replacement;
        attemptToDelete.addRateLimited(n.identity.uid());
      }
    }
    return false;
  }

  private void removeNode(Node n, ObjectIdentity deleted) {
    uidToNode.remove(n.identity.uid());
    for (OwnerReference r : n.owners) {
      Node owner = uidToNode.get(r.getUid());
      if (owner != null) {
        owner.dependents.remove(n);
      }
    }
    if (!n.dependents.isEmpty()) {
      absentOwners.add(deleted);
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

  /**
   * Links {@code n} to its owners, a virtual node standing for each owner not in the graph (a
   * worker asks the API server whether it exists). {@code n} itself is checked by a worker when a
   * reference may be invalid: the owner is namespaced and in another namespace (reported with an
   * {@code OwnerRefInvalidNamespace} event once the owner was observed), the reference's
   * coordinates differ from the owner's, or a cluster-scoped virtual owner is referred to from
   * another namespace (it may be a namespaced kind, upstream's #98040).
   */
  private void addDependentToOwners(Logger log, Node n, List<OwnerReference> owners) {
    boolean potentiallyInvalid = false;
    for (OwnerReference r : owners) {
      Node owner = uidToNode.get(r.getUid());
      if (owner == null) {
        owner = new Node(ObjectIdentity.ofOwner(r, n.identity.namespace()), List.of(), true);
        log.v(5).info("Add virtual item", "identity", owner.identity);
        uidToNode.put(r.getUid(), owner);
        owner.dependents.add(n);
        attemptToDelete.add(r.getUid());
        continue;
      }
      owner.dependents.add(n);
      if (!potentiallyInvalid) {
        potentiallyInvalid = potentiallyInvalid(log, n, r, owner);
      }
    }
    if (potentiallyInvalid) {
      attemptToDelete.add(n.identity.uid());
    }
  }

  private boolean potentiallyInvalid(Logger log, Node n, OwnerReference r, Node owner) {
    boolean ownerNamespaced = !owner.identity.namespace().isEmpty();
    boolean sameNamespace = owner.identity.namespace().equals(n.identity.namespace());
    if (ownerNamespaced && !sameNamespace) {
      if (!owner.virtual) {
        // Definitely wrong; a cluster-scoped owner may be referred to from anywhere.
        log.v(2)
            .info(
                "Item references an owner but does not match namespaces",
                "item",
                n.identity,
                "owner",
                owner.identity);
        reportInvalidNamespaceOwnerRef(n, r.getUid());
      }
      return true;
    }
    if (!owner.identity.matchesCoordinates(r)) {
      if (!owner.virtual) {
        log.v(2)
            .info(
                "Item references an owner with coordinates that do not match the observed"
                    + " identity",
                "item",
                n.identity,
                "owner",
                owner.identity);
      }
      return true;
    }
    return !ownerNamespaced && !sameNamespace && owner.virtual;
  }

  /**
   * Upstream's {@code reportInvalidNamespaceOwnerRef}: a Warning {@code OwnerRefInvalidNamespace}
   * about the dependent, naming the reference as the owner it cannot be in its own namespace.
   */
  private void reportInvalidNamespaceOwnerRef(Node n, String invalidOwnerUid) {
    OwnerReference invalid =
        n.owners.stream().filter(r -> r.getUid().equals(invalidOwnerUid)).findFirst().orElse(null);
    if (invalid == null) {
      return;
    }
    ObjectReference regarding =
        new ObjectReferenceBuilder()
            .withKind(n.identity.kind())
            .withApiVersion(n.identity.apiVersion())
            .withNamespace(n.identity.namespace())
            .withName(n.identity.name())
            .withUid(n.identity.uid())
            .build();
    recorder.eventf(
        regarding,
        EventRecorder.WARNING,
        "OwnerRefInvalidNamespace",
        "GarbageCollect",
        "ownerRef %s does not exist in namespace \"%s\"",
        ObjectIdentity.ofOwner(invalid, n.identity.namespace()),
        n.identity.namespace());
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
