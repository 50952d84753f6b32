package io.jdra.apiserver.patch;

import io.jdra.apiserver.patch.Schema.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The fields a create's Update entry records, remembered per kind from the last create, for the
 * next create of the same shape: the same writer creates object after object that differ in values
 * only (a template's pods, the scheduler's events), and comparing against the remembered shape is
 * much cheaper than comparing the whole object with nothing and encoding the result.
 *
 * <p>What a create records depends on the schema, the kind, the subresource and, of the object,
 * only on its keys, on which values are null, objects, lists or scalars, and on the contents of its
 * lists (an associative list's keys and a set's values are written into the paths). "Same shape" is
 * stricter than that: every object has the same keys in the same order, every node the same class,
 * and every list is equal to the remembered one.
 */
final class CreateShapes {
  /**
   * A create's outcome: the object as it was compared (a copy: the stored object is changed after
   * the step, its resourceVersion set), and the set and FieldsV1 of its entry (null set: no entry).
   */
  record Kept(
      String apiVersion,
      String kind,
      String subresource,
      JsonNode shape,
      FieldSet own,
      JsonNode fieldsV1,
      Uses uses) {
    Kept(
        String apiVersion,
        String kind,
        String subresource,
        JsonNode shape,
        FieldSet own,
        JsonNode fieldsV1) {
      this(apiVersion, kind, subresource, shape, own, fieldsV1, new Uses());
    }
  }

  /** How often a remembered outcome was taken and missed (counted loosely: only a heuristic). */
  static final class Uses {
    int hits;
    int misses;
  }

  /**
   * A kind whose creates never repeat a shape (a template's claims: each names its pod's uid in an
   * owner reference, a list-map key) copies its object for nothing on every create; once the
   * remembered outcome has missed without ever being taken, only one miss in this many replaces it.
   */
  static final int RETRY_EVERY = 16;

  /** Kinds share a schema type only when none is known (untyped); the record then tells them. */
  private final Map<Type, Kept> last = new ConcurrentHashMap<>();

  /** The remembered outcome for {@code created}, or null when its shape is not the last one's. */
  Kept find(Type type, String apiVersion, String kind, String subresource, JsonNode created) {
    Kept k = last.get(type);
    if (k == null) {
      return null;
    }
    if (!k.kind.equals(kind)
        || !k.apiVersion.equals(apiVersion)
        || !k.subresource.equals(subresource)) {
      k.uses.misses++;
      return null;
    }
    if (sameShape(k.shape, created)) {
      k.uses.hits++;
      return k;
    }
    Kept owned = withOwners(k, created);
    if (owned == null) {
      k.uses.misses++;
      return null;
    }
    k.uses.hits++;
    return owned;
  }

  /**
   * The remembered outcome for a create whose shape is the last one's but for the uids of its owner
   * references (a template's claims: each names its pod), or null. An owner reference list is a
   * list-map keyed by uid alone, so each uid is written into the paths of its item as a key and
   * nowhere else: the remembered set with each remembered key replaced by the create's key at the
   * same position is the set the general path records. Only when every remembered key is found in
   * the set as such a key, and the uids of either list are distinct strings.
   */
  static Kept withOwners(Kept k, JsonNode created) {
    if (k.own == null || !(k.shape instanceof ObjectNode kept)) {
      return null;
    }
    JsonNode before = kept.path("metadata").get("ownerReferences");
    JsonNode after = created.path("metadata").get("ownerReferences");
    if (!(before instanceof ArrayNode b)
        || !(after instanceof ArrayNode a)
        || b.size() != a.size()
        || b.equals(a)
        || !sameShapeBut(kept, created, OWNERS, 0)) {
      return null;
    }
    Map<FieldPath.Element, FieldPath.Element> keys = new HashMap<>();
    for (int i = 0; i < b.size(); i++) {
      JsonNode was = b.get(i).get("uid");
      JsonNode is = a.get(i).get("uid");
      if (was == null || !was.isString() || is == null || !is.isString()) {
        return null;
      }
      if (keys.put(FieldPath.Key.of(b.get(i), UID), FieldPath.Key.of(a.get(i), UID)) != null) {
        return null; // a uid twice in the remembered list
      }
    }
    if (new HashSet<>(keys.values()).size() != keys.size()) {
      return null; // a uid twice in the created list
    }
    List<FieldPath> paths = new ArrayList<>(k.own.paths().size());
    Set<FieldPath.Element> found = new HashSet<>();
    for (FieldPath p : k.own.paths()) {
      if (p.size() > 2 && p.element(0).equals(METADATA) && p.element(1).equals(OWNER_REFERENCES)) {
        FieldPath.Element key = keys.get(p.element(2));
        if (key == null) {
          return null; // not keyed by uid alone: the general path
        }
        found.add(p.element(2));
        p = p.with(2, key);
      }
      paths.add(p);
    }
    if (found.size() != keys.size()) {
      return null;
    }
    FieldSet own = new FieldSet(paths);
    return new Kept(k.apiVersion, k.kind, k.subresource, k.shape, own, own.encode(), k.uses);
  }

  private static final String[] OWNERS = {"metadata", "ownerReferences"};
  private static final List<String> UID = List.of("uid");
  private static final FieldPath.Element METADATA = new FieldPath.Field("metadata");
  private static final FieldPath.Element OWNER_REFERENCES = new FieldPath.Field("ownerReferences");

  /**
   * As {@link #sameShape} but for the list at {@code at} (member names from the root), whose items
   * need only the same shape each (their lists equal), not the same values.
   */
  static boolean sameShapeBut(JsonNode a, JsonNode b, String[] at, int depth) {
    if (depth == at.length) {
      if (!(a instanceof ArrayNode x) || !(b instanceof ArrayNode y) || x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!sameShape(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a instanceof ObjectNode && a.getClass() == b.getClass() && sameMembers(a, b, at, depth);
  }

  /** Whether a create that {@link #find} missed should be remembered in place of the last one. */
  boolean wanted(Type type) {
    Kept k = last.get(type);
    return k == null || k.uses.hits > 0 || k.uses.misses % RETRY_EVERY == 0;
  }

  /** The outcome remembered for a type (tests). */
  Kept last(Type type) {
    return last.get(type);
  }

  /** Remembers a create's outcome, computed by the general path, for the creates that follow. */
  void keep(Type type, Kept outcome) {
    last.put(type, outcome);
  }

  /** True when {@code a} and {@code b} have the same shape (see the class comment). */
  static boolean sameShape(JsonNode a, JsonNode b) {
    if (a.getClass() != b.getClass()) {
      return false;
    }
    if (a instanceof ObjectNode) {
      return sameMembers(a, b, null, 0);
    }
    if (a instanceof ArrayNode) {
      return a.equals(b);
    }
    return true;
  }

  /**
   * Whether objects {@code a} and {@code b} have the same member names in the same order, each
   * value of the same shape; the member named {@code at[depth]} (when {@code at} is given) as
   * {@link #sameShapeBut} has it.
   */
  private static boolean sameMembers(JsonNode a, JsonNode b, String[] at, int depth) {
    if (a.size() != b.size()) {
      return false;
    }
    Iterator<Map.Entry<String, JsonNode>> ia = a.properties().iterator();
    Iterator<Map.Entry<String, JsonNode>> ib = b.properties().iterator();
    while (ia.hasNext()) {
      Map.Entry<String, JsonNode> ea = ia.next();
      Map.Entry<String, JsonNode> eb = ib.next();
      if (!ea.getKey().equals(eb.getKey())) {
        return false;
      }
      boolean same =
          at != null && ea.getKey().equals(at[depth])
              ? sameShapeBut(ea.getValue(), eb.getValue(), at, depth + 1)
              : sameShape(ea.getValue(), eb.getValue());
      if (!same) {
        return false;
      }
    }
    return true;
  }
}
