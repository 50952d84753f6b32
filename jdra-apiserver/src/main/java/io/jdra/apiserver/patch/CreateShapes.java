package io.jdra.apiserver.patch;

import io.jdra.apiserver.patch.Schema.Type;
import java.util.Iterator;
import java.util.Map;
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
        || !k.subresource.equals(subresource)
        || !sameShape(k.shape, created)) {
      k.uses.misses++;
      return null;
    }
    k.uses.hits++;
    return k;
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
      if (a.size() != b.size()) {
        return false;
      }
      Iterator<Map.Entry<String, JsonNode>> ia = a.properties().iterator();
      Iterator<Map.Entry<String, JsonNode>> ib = b.properties().iterator();
      while (ia.hasNext()) {
        Map.Entry<String, JsonNode> ea = ia.next();
        Map.Entry<String, JsonNode> eb = ib.next();
        if (!ea.getKey().equals(eb.getKey()) || !sameShape(ea.getValue(), eb.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof ArrayNode) {
      return a.equals(b);
    }
    return true;
  }
}
