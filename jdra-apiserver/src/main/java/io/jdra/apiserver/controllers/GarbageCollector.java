package io.jdra.apiserver.controllers;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.DeleteOptions;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.rest.WriteOptions;
import io.jdra.apiserver.storage.StoredObject;
import io.jdra.apiserver.storage.WatchEvent;
import io.jdra.apiserver.storage.WatchListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Garbage collection by ownerReferences, as upstream's garbage collector: when every owner of an
 * object is gone the object is deleted (background); an owner deleted with {@code Foreground} keeps
 * its {@code foregroundDeletion} finalizer until its dependents are gone; {@code Orphan} removes
 * the owner's references from its dependents. Indexes are kept from store events and touched only
 * on the controller thread.
 */
public final class GarbageCollector implements AutoCloseable {
  private record Ref(ResourceType type, String namespace, String name) {}

  private record Node(Ref ref, List<String> owners) {}

  private final ObjectService service;
  private final ScheduledExecutorService executor;
  private final Map<String, Node> byUid = new HashMap<>();
  private final Map<String, Set<String>> dependents = new HashMap<>();
  private static final byte[] OWNER_REFERENCES =
      "\"ownerReferences\"".getBytes(java.nio.charset.StandardCharsets.UTF_8);
  private static final byte[] DELETION_TIMESTAMP =
      "\"deletionTimestamp\"".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  private final List<Runnable> cancels = new ArrayList<>();
  private boolean initializing = true;

  public GarbageCollector(ObjectService service, ScheduledExecutorService executor) {
    this.service = service;
    this.executor = executor;
  }

  /*
   * Events arrive under a store's lock, thousands per second: they are queued without locks and
   * handled in batches, so a write never waits for the executor's queue or wakes its thread more
   * than once per batch.
   */
  private final java.util.concurrent.ConcurrentLinkedQueue<Runnable> events =
      new java.util.concurrent.ConcurrentLinkedQueue<>();
  private final java.util.concurrent.atomic.AtomicBoolean drainScheduled =
      new java.util.concurrent.atomic.AtomicBoolean();

  private void enqueue(Runnable event) {
    events.add(event);
    if (drainScheduled.compareAndSet(false, true)) {
      executor.execute(this::drainEvents);
    }
  }

  private void drainEvents() {
    drainScheduled.set(false);
    Runnable r;
    while ((r = events.poll()) != null) {
      r.run();
    }
  }

  public void start() {
    for (ResourceType t : service.registry().stored()) {
      cancels.add(
          service
              .store(t)
              .watchFromNow(
                  o -> true,
                  new WatchListener() {
                    @Override
                    public void onEvent(WatchEvent e) {
                      enqueue(() -> handle(t, e));
                    }
                  }));
    }
    // Owners may be listed after their dependents at startup: check orphans once all is known.
    executor.execute(() -> {
      initializing = false;
      for (String uid : List.copyOf(byUid.keySet())) {
        Node n = byUid.get(uid);
        if (n != null && !n.owners().isEmpty()) {
          attemptToDelete(uid);
        }
      }
    });
  }

  private void handle(ResourceType t, WatchEvent e) {
    try {
      StoredObject o = e.object();
      if (o.uid() == null) {
        return;
      }
      if (e.type() == WatchEvent.Type.DELETED) {
        Node gone = byUid.remove(o.uid());
        if (gone != null) {
          unlink(o.uid(), gone.owners());
        }
        for (String dep : List.copyOf(dependents.getOrDefault(o.uid(), Set.of()))) {
          attemptToDelete(dep);
        }
        dependents.remove(o.uid());
        return;
      }
      // Most objects neither have owners nor are being deleted: skip parsing those.
      boolean relevant =
          contains(o.json(), OWNER_REFERENCES) || contains(o.json(), DELETION_TIMESTAMP);
      ObjectNode obj = relevant ? Json.parseObject(o.json()) : null;
      List<String> owners = relevant ? owners(obj) : List.of();
      Node previous = byUid.put(o.uid(), new Node(new Ref(t, o.namespace(), o.name()), owners));
      if (previous != null) {
        unlink(o.uid(), previous.owners());
      }
      for (String owner : owners) {
        dependents.computeIfAbsent(owner, k -> new LinkedHashSet<>()).add(o.uid());
      }
      if (e.type() == WatchEvent.Type.ADDED && !initializing) {
        for (String owner : owners) {
          if (!byUid.containsKey(owner)) {
            // Upstream deletes dependents whose owners never existed or are already gone.
            executor.execute(() -> attemptToDelete(o.uid()));
            break;
          }
        }
      }
      if (obj != null && obj.at("/metadata/deletionTimestamp").isString()) {
        processDeleting(o.uid(), obj);
      }
    } catch (RuntimeException ex) {
      // Best effort, like upstream's GC: a failed attempt is retried on the next event.
      org.slf4j.LoggerFactory.getLogger(GarbageCollector.class)
          .debug("Garbage collection step failed", ex);
    }
  }

  private void unlink(String uid, List<String> owners) {
    for (String owner : owners) {
      Set<String> s = dependents.get(owner);
      if (s != null) {
        s.remove(uid);
        // An owner waiting in foreground deletion may now be free to go.
        Node ownerNode = byUid.get(owner);
        if (s.isEmpty() && ownerNode != null) {
          executor.execute(() -> recheckOwner(owner));
        }
      }
    }
  }

  private void recheckOwner(String uid) {
    Node n = byUid.get(uid);
    if (n == null) {
      return;
    }
    StoredObject o = service.store(n.ref().type()).get(n.ref().namespace(), n.ref().name());
    if (o != null && uid.equals(o.uid())) {
      ObjectNode obj = Json.parseObject(o.json());
      if (obj.at("/metadata/deletionTimestamp").isString()) {
        processDeleting(uid, obj);
      }
    }
  }

  private static List<String> owners(ObjectNode obj) {
    List<String> owners = new ArrayList<>();
    for (JsonNode r : obj.at("/metadata/ownerReferences")) {
      String uid = r.path("uid").asString("");
      if (!uid.isEmpty()) {
        owners.add(uid);
      }
    }
    return owners;
  }

  private void processDeleting(String uid, ObjectNode obj) {
    Set<String> finalizers = new LinkedHashSet<>();
    obj.at("/metadata/finalizers").forEach(f -> finalizers.add(f.asString()));
    Set<String> deps = dependents.getOrDefault(uid, Set.of());
    if (finalizers.contains("orphan")) {
      for (String dep : List.copyOf(deps)) {
        removeOwnerRef(dep, uid);
      }
      removeFinalizer(uid, "orphan");
    } else if (finalizers.contains("foregroundDeletion")) {
      if (deps.isEmpty()) {
        removeFinalizer(uid, "foregroundDeletion");
        return;
      }
      for (String dep : List.copyOf(deps)) {
        Node d = byUid.get(dep);
        if (d != null) {
          delete(d.ref(), new DeleteOptions(null, "Foreground", dep, null, false));
        }
      }
    }
  }

  /** Deletes a dependent whose owners are all gone; drops the dangling reference otherwise. */
  private void attemptToDelete(String uid) {
    Node d = byUid.get(uid);
    if (d == null) {
      return;
    }
    List<String> alive = d.owners().stream().filter(byUid::containsKey).toList();
    if (alive.isEmpty()) {
      delete(d.ref(), new DeleteOptions(null, "Background", uid, null, false));
    } else if (alive.size() < d.owners().size()) {
      for (String owner : d.owners()) {
        if (!byUid.containsKey(owner)) {
          removeOwnerRef(uid, owner);
        }
      }
    }
  }

  private void delete(Ref ref, DeleteOptions o) {
    try {
      service.delete(ref.type(), ref.namespace(), ref.name(), o);
    } catch (ApiException e) {
      if (e.code() != 404 && e.code() != 409) {
        throw e;
      }
    }
  }

  private void removeOwnerRef(String dependentUid, String ownerUid) {
    Node d = byUid.get(dependentUid);
    if (d == null) {
      return;
    }
    update(
        d.ref(),
        obj -> {
          JsonNode refs = obj.at("/metadata/ownerReferences");
          ArrayNode kept = Json.child(obj, "metadata").putArray("ownerReferences");
          refs.forEach(r -> {
            if (!ownerUid.equals(r.path("uid").asString(""))) {
              kept.add(r);
            }
          });
          if (kept.isEmpty()) {
            Json.child(obj, "metadata").remove("ownerReferences");
          }
          return obj;
        });
  }

  private void removeFinalizer(String uid, String finalizer) {
    Node n = byUid.get(uid);
    if (n == null) {
      return;
    }
    update(
        n.ref(),
        obj -> {
          JsonNode fs = obj.at("/metadata/finalizers");
          ArrayNode kept = Json.child(obj, "metadata").putArray("finalizers");
          fs.forEach(f -> {
            if (!finalizer.equals(f.asString())) {
              kept.add(f);
            }
          });
          return obj;
        });
  }

  private void update(Ref ref, java.util.function.UnaryOperator<ObjectNode> f) {
    try {
      service.guaranteedUpdate(
          ref.type(), ref.namespace(), ref.name(), "", 0, WriteOptions.DEFAULT, f);
    } catch (ApiException e) {
      if (e.code() != 404) {
        throw e;
      }
    }
  }

  @Override
  public void close() {
    cancels.forEach(Runnable::run);
  }

  /** Whether {@code needle} occurs in {@code hay} (a conservative pre-check before parsing). */
  static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
