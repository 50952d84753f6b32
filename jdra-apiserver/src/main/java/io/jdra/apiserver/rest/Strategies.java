package io.jdra.apiserver.rest;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Per-resource write rules of upstream's registry strategies: what create resets, what a main
 * resource write or a status write may change, when generation moves, how deletion begins.
 * Stateless.
 */
final class Strategies {
  /** Finalizer the garbage collector handles for foreground deletion. */
  static final String FOREGROUND = "foregroundDeletion";

  /** Finalizer the garbage collector handles for orphaning dependents. */
  static final String ORPHAN = "orphan";

  private static final List<String> IMMUTABLE_META =
      List.of(
          "uid",
          "creationTimestamp",
          "deletionTimestamp",
          "deletionGracePeriodSeconds",
          "generation",
          "name",
          "namespace");

  private Strategies() {}

  static void prepareForCreate(ResourceType t, ObjectNode obj) {
    t.rules().prepareForCreate(t, obj);
  }

  /**
   * The top-level fields that the admission of kind {@code t} may change in place (not only by
   * replacing them), so that a write starting from the stored object must copy them; null when it
   * may change any part of the tree. resource.k8s.io kinds: none (their admission decodes the tree
   * and writes back whole fields). Pods: the spec (the core defaults run in place on every pod
   * write); metadata and status values only get replaced.
   */
  static Set<String> changedInPlace(ResourceType t) {
    if (t.group().equals("resource.k8s.io")) {
      return Set.of();
    }
    if (t.group().isEmpty() && t.kind().equals("Pod")) {
      return POD_CHANGED_IN_PLACE;
    }
    return null;
  }

  private static final Set<String> POD_CHANGED_IN_PLACE = Set.of("spec");

  /**
   * A tree for a write starting from the stored object {@code old} (read only, shared with other
   * writes), which the registry and admission may then change: with {@code share}, a new root and
   * metadata object holding old's values (so shared), and old's other fields shared too unless
   * admission changes them in place ({@link #changedInPlace}), which are deep copies; otherwise (or
   * for kinds whose admission may change anything) a deep copy. Keys stay in old's order, so both
   * serialize alike.
   */
  static ObjectNode copyForWrite(ResourceType t, ObjectNode old, boolean share) {
    Set<String> copied = share ? changedInPlace(t) : null;
    if (copied == null || !(old.get("metadata") instanceof ObjectNode meta)) {
      return old.deepCopy();
    }
    ObjectNode next = Json.object();
    for (Map.Entry<String, JsonNode> e : old.properties()) {
      String k = e.getKey();
      JsonNode v = e.getValue();
      if (v == meta) {
        ObjectNode m = Json.object();
        m.setAll(meta);
        next.set(k, m);
      } else {
        next.set(k, copied.contains(k) ? v.deepCopy() : v);
      }
    }
    return next;
  }

  /**
   * Puts {@code old}'s own values into {@code desired} (a write's new tree, its own) where they are
   * written alike ({@link Json#writtenAlike}): a PUT resends the stored object with a few fields
   * changed, and what it left alone then compares with the stored object by identity (managed
   * fields decoded from the stored ones and written as stored, admission's and the field manager's
   * comparisons stopping at once). Only what {@link #copyForWrite} would share: the metadata
   * object's values and the top-level fields admission does not change in place; nothing without
   * {@code share}. The tree writes the same JSON as before.
   */
  static void shareStoredValues(ResourceType t, ObjectNode desired, ObjectNode old, boolean share) {
    Set<String> copied = share ? changedInPlace(t) : null;
    if (copied == null || desired == old) {
      return;
    }
    if (desired.get("metadata") instanceof ObjectNode meta
        && old.get("metadata") instanceof ObjectNode oldMeta
        && meta != oldMeta) {
      shareValues(meta, oldMeta, Set.of());
    }
    // the status a PUT sends is replaced by the stored one (prepareForUpdate): not compared
    shareValues(desired, old, t.hasStatus() ? union(copied, "status") : copied);
  }

  private static Set<String> union(Set<String> s, String k) {
    Set<String> u = new HashSet<>(s);
    u.add(k);
    return u;
  }

  /**
   * Replaces {@code into}'s container values that {@code from} holds written alike by {@code
   * from}'s, but for the keys {@code kept} (and the metadata object itself).
   */
  private static void shareValues(ObjectNode into, ObjectNode from, Set<String> kept) {
    List<String> shared = null;
    for (Map.Entry<String, JsonNode> e : into.properties()) {
      String k = e.getKey();
      JsonNode v = e.getValue();
      JsonNode stored = from.get(k);
      if (stored != null
          && v != stored
          && v.isContainer()
          && !k.equals("metadata")
          && !kept.contains(k)
          && Json.writtenAlike(v, stored)) {
        (shared == null ? shared = new java.util.ArrayList<>() : shared).add(k);
      }
    }
    if (shared != null) {
      for (String k : shared) {
        into.set(k, from.get(k)); // in place: the key keeps its position
      }
    }
  }

  /**
   * A new root and metadata object holding {@code old}'s values (shared): for a tree only the
   * registry's metadata bookkeeping changes before it is stored (a deleted object's last state).
   */
  static ObjectNode withOwnMetadata(ObjectNode old) {
    ObjectNode next = Json.object();
    for (Map.Entry<String, JsonNode> e : old.properties()) {
      if (e.getKey().equals("metadata") && e.getValue() instanceof ObjectNode meta) {
        ObjectNode m = Json.object();
        m.setAll(meta);
        next.set(e.getKey(), m);
      } else {
        next.set(e.getKey(), e.getValue());
      }
    }
    return next;
  }

  /**
   * Applies the update rules to {@code desired} (a fresh tree) given the current object, which is
   * only read: the tree returned shares with it only what admission does not change in place (with
   * {@code share}; see {@link #copyForWrite}).
   *
   * @param sub {@code ""}, {@code status} or {@code finalize}
   */
  static ObjectNode prepareForUpdate(
      ResourceType t, String sub, ObjectNode desired, ObjectNode old, boolean share) {
    ObjectNode next;
    if (sub.equals("status") || sub.equals("finalize")) {
      next = copyForWrite(t, old, share);
      String field = sub.equals("status") ? "status" : "spec";
      JsonNode v = desired.get(field);
      if (v == null) {
        next.remove(field);
      } else {
        next.set(field, v.deepCopy());
      }
      JsonNode rv = Json.at(desired, "metadata.resourceVersion");
      if (rv != null) {
        Json.child(next, "metadata").set("resourceVersion", rv);
      }
      return next;
    }
    next = desired;
    next.put("apiVersion", t.storageApiVersion());
    next.put("kind", t.kind());
    ObjectNode meta = Json.child(next, "metadata");
    ObjectNode oldMeta = Json.child(old, "metadata");
    for (String f : IMMUTABLE_META) {
      JsonNode v = oldMeta.get(f);
      if (v == null) {
        meta.remove(f);
      } else {
        meta.set(f, v);
      }
    }
    if (t.hasStatus() && !sub.equals("binding")) {
      JsonNode s = old.get("status");
      if (s == null) {
        next.remove("status");
      } else {
        // old is read only (shared with other writes): copied unless admission only replaces it
        Set<String> copied = share ? changedInPlace(t) : null;
        next.set("status", copied == null || copied.contains("status") ? s.deepCopy() : s);
      }
    }
    t.rules().prepareForUpdate(next, old);
    return next;
  }

  /**
   * Sets next's metadata.managedFields to those of {@code from} (removes them when it has none).
   */
  static void keepManagedFields(ObjectNode next, ObjectNode from) {
    JsonNode managed = Json.at(from, "metadata.managedFields");
    ObjectNode meta = Json.child(next, "metadata");
    if (managed == null) {
      meta.remove("managedFields");
    } else {
      meta.set("managedFields", managed);
    }
  }

  /**
   * Moves {@code metadata.generation} by one when the spec changed. Called on the admitted object:
   * as in kube-apiserver, the comparison sees the defaulted spec, so a write that only omits
   * defaulted fields (kubectl apply of the same manifest) is no spec change. Kinds whose admission
   * strategy already moved the generation (jdra-api's slice, class and taint-rule strategies, which
   * follow their upstream strategy's own comparison) keep that decision.
   */
  static void updateGeneration(ObjectNode next, ObjectNode old) {
    JsonNode g = Json.child(old, "metadata").get("generation");
    ObjectNode meta = Json.child(next, "metadata");
    if (g == null || !Json.sameValue(g, meta.get("generation"))) {
      return;
    }
    if (!Json.sameValue(old.get("spec"), next.get("spec"))) {
      putInteger(meta, "generation", g.asLong() + 1);
    }
  }

  /**
   * Sets an integer in the node class the parser reads for its value (an int when it fits): a tree
   * that parses back alike is shared with the next write instead of copied ({@link RecentTrees}).
   */
  private static void putInteger(ObjectNode o, String field, long value) {
    if (value == (int) value) {
      o.put(field, (int) value);
    } else {
      o.put(field, value);
    }
  }

  /** New finalizers while deleting, which upstream forbids; empty when fine. */
  static List<String> addedFinalizersWhileDeleting(ObjectNode next, ObjectNode old) {
    if (!Json.child(old, "metadata").has("deletionTimestamp")) {
      return List.of();
    }
    Set<String> before = finalizers(old);
    return finalizers(next).stream().filter(f -> !before.contains(f)).toList();
  }

  static Set<String> finalizers(ObjectNode obj) {
    Set<String> s = new HashSet<>();
    JsonNode f = Json.at(obj, "metadata.finalizers");
    if (f != null && f.isArray()) {
      f.forEach(n -> s.add(n.asString()));
    }
    return s;
  }

  /** Whether a terminating object has no finalizers left, so it is to be removed. */
  static boolean finalizersDone(ResourceType t, ObjectNode obj) {
    JsonNode meta = obj.get("metadata");
    if (meta == null || !meta.has("deletionTimestamp")) {
      return false;
    }
    JsonNode f = meta.get("finalizers");
    if (f != null && !f.isEmpty()) {
      return false;
    }
    // e.g. a namespace's spec.finalizers; a pod on a node waits for its kubelet (or a grace-0
    // delete), finalizers or not
    return !t.rules().holdsDeletion(obj);
  }

  /** Whether two versions are equal apart from resourceVersion and managedFields. */
  static boolean unchanged(ObjectNode next, ObjectNode old) {
    // field by field rather than on copies without those two: this runs on every update
    return sameExcept(next, old, "metadata", null)
        && sameExcept(meta(next), meta(old), "resourceVersion", "managedFields");
  }

  private static JsonNode meta(ObjectNode o) {
    JsonNode m = o.get("metadata");
    return m == null ? Json.object() : m;
  }

  /** Whether two objects are equal by value apart from the fields named (null: none). */
  private static boolean sameExcept(JsonNode a, JsonNode b, String skip1, String skip2) {
    if (!(a instanceof ObjectNode x) || !(b instanceof ObjectNode y)) {
      return Json.sameValue(a, b);
    }
    int compared = 0;
    for (Map.Entry<String, JsonNode> e : x.properties()) {
      String k = e.getKey();
      if (k.equals(skip1) || k.equals(skip2)) {
        continue;
      }
      compared++;
      if (!Json.sameValue(e.getValue(), y.get(k))) {
        return false;
      }
    }
    int skipped = (y.has(skip1) ? 1 : 0) + (skip2 != null && y.has(skip2) ? 1 : 0);
    return compared == y.size() - skipped;
  }

  /**
   * Begins deleting: returns null when the object is to be removed now, else the updated object
   * (deletionTimestamp set, propagation finalizer added) that stays until finalizers are gone.
   */
  static ObjectNode beginDelete(ResourceType t, ObjectNode obj, DeleteOptions o, Instant now) {
    // Most deletes remove the object at once: that is decided on the object itself (read only),
    // without the deep copy that only a pending deletion changes.
    if (removedAtOnce(t, obj, o)) {
      assert beginDeleteOnCopy(t, obj, o, now) == null : "removedAtOnce disagrees";
      return null;
    }
    return beginDeleteOnCopy(t, obj, o, now);
  }

  /**
   * Whether {@link #beginDeleteOnCopy} returns null for {@code obj}: no finalizer is there or
   * added, and the kind's rules neither hold the object nor give it a grace period above 0. The
   * kind's {@code startDeletion} is left out: the built-in kinds' marks (a namespace's phase)
   * change neither the grace period nor whether deletion is held ({@code StrategiesBeginDeleteTest}
   * compares the two on every built-in kind).
   */
  static boolean removedAtOnce(ResourceType t, ObjectNode obj, DeleteOptions o) {
    Set<String> finalizers = finalizers(obj);
    String policy = o.propagationPolicy();
    if (("Foreground".equals(policy) && !finalizers.contains(FOREGROUND))
        || ("Orphan".equals(policy) && !finalizers.contains(ORPHAN))) {
      return false; // a finalizer is added
    }
    Long graceful = t.rules().gracePeriodSeconds(obj, o.gracePeriodSeconds());
    if (graceful == null) {
      return finalizers.isEmpty() && !t.rules().holdsDeletion(obj);
    }
    long grace = graceful;
    JsonNode meta = obj.path("metadata");
    if (meta.has("deletionTimestamp") && meta.has("deletionGracePeriodSeconds")) {
      grace = Math.min(grace, meta.get("deletionGracePeriodSeconds").asLong());
    }
    return grace == 0 && finalizers.isEmpty();
  }

  /** {@link #beginDelete} on a deep copy of {@code obj}, whatever the outcome. */
  static ObjectNode beginDeleteOnCopy(
      ResourceType t, ObjectNode obj, DeleteOptions o, Instant now) {
    ObjectNode next = obj.deepCopy();
    ObjectNode meta = Json.child(next, "metadata");
    boolean deleting = meta.has("deletionTimestamp");
    Set<String> finalizers = finalizers(next);
    if ("Foreground".equals(o.propagationPolicy()) && !finalizers.contains(FOREGROUND)) {
      meta.withArray("finalizers").add(FOREGROUND);
      finalizers.add(FOREGROUND);
    } else if ("Orphan".equals(o.propagationPolicy()) && !finalizers.contains(ORPHAN)) {
      meta.withArray("finalizers").add(ORPHAN);
      finalizers.add(ORPHAN);
    }
    t.rules().startDeletion(next);
    long grace = 0;
    Long graceful = t.rules().gracePeriodSeconds(next, o.gracePeriodSeconds());
    if (graceful != null) {
      grace = graceful;
      if (deleting && meta.has("deletionGracePeriodSeconds")) {
        grace = Math.min(grace, meta.get("deletionGracePeriodSeconds").asLong());
      }
      if (grace == 0 && finalizers.isEmpty()) {
        return null;
      }
    } else if (finalizers.isEmpty() && !t.rules().holdsDeletion(next)) {
      return null;
    }
    if (!deleting || grace < meta.path("deletionGracePeriodSeconds").asLong(Long.MAX_VALUE)) {
      meta.put("deletionTimestamp", Names.timestamp(now.plusSeconds(grace)));
      putInteger(meta, "deletionGracePeriodSeconds", grace);
    }
    return next;
  }
}
