package io.jdra.apiserver.patch;

import io.jdra.apiserver.patch.Schema.Field;
import io.jdra.apiserver.patch.Schema.Kind;
import io.jdra.apiserver.patch.Schema.ListType;
import io.jdra.apiserver.patch.Schema.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Schema-aware operations of server-side apply, with structured-merge-diff's semantics: the field
 * set of a value, merging an applied configuration into a live object, comparing two objects,
 * removing fields, and filling in what Go's zero values would show.
 */
final class Typed {
  private Typed() {}

  enum Shape {
    OBJECT,
    LIST_MAP,
    LIST_SET,
    ATOMIC
  }

  /** The pseudo-field of a whole object of a kind. */
  static Field root(Type type) {
    return new Field(
        "", Kind.STRUCT, type.name, List.of(), "", ListType.ATOMIC, List.of(), false, false);
  }

  static Type objectType(Field f) {
    return switch (f.kind()) {
      case STRUCT, MAP -> f.objectType();
      default -> Type.UNTYPED;
    };
  }

  static Shape shape(Field f, JsonNode v) {
    if (v.isObject()) {
      if (f.kind() == Kind.LIST) {
        return Shape.ATOMIC;
      }
      Type t = objectType(f);
      return t.atomic || f.atomic() ? Shape.ATOMIC : Shape.OBJECT;
    }
    if (v.isArray() && f.kind() == Kind.LIST) {
      return switch (f.listType()) {
        case MAP -> f.listKeys().isEmpty() ? Shape.ATOMIC : Shape.LIST_MAP;
        case SET -> Shape.LIST_SET;
        case ATOMIC -> Shape.ATOMIC;
      };
    }
    return Shape.ATOMIC;
  }

  /**
   * Defaults of list-map key fields (from the OpenAPI schema upstream builds apply on): a port
   * applied without a protocol is the same item as the stored, defaulted TCP one.
   */
  private static final Map<String, Map<String, JsonNode>> KEY_DEFAULTS =
      Map.of(
          "core/v1.ContainerPort", Map.of("protocol", Json.NODES.stringNode("TCP")),
          "core/v1.ServicePort", Map.of("protocol", Json.NODES.stringNode("TCP")));

  static FieldPath.Element itemElement(Field f, Shape s, JsonNode item) {
    return s == Shape.LIST_MAP
        ? FieldPath.Key.of(item, f.listKeys(), KEY_DEFAULTS.getOrDefault(f.elem(), Map.of()))
        : new FieldPath.Value(item);
  }

  // ---- field sets

  static FieldSet toFieldSet(JsonNode v, Field f) {
    FieldSet out = new FieldSet();
    collect(v, f, FieldPath.ROOT, out);
    return out;
  }

  private static void collect(JsonNode v, Field f, FieldPath path, FieldSet out) {
    Shape s = shape(f, v);
    switch (s) {
      case ATOMIC -> out.add(path);
      case OBJECT -> {
        Type t = objectType(f);
        for (Map.Entry<String, JsonNode> e : v.properties()) {
          FieldPath cp = path.child(new FieldPath.Field(e.getKey()));
          JsonNode c = e.getValue();
          collect(c, t.field(e.getKey()), cp, out);
          if (c.isNull() || (c.isObject() && c.isEmpty()) || !t.declares(e.getKey())) {
            out.add(cp);
          }
        }
      }
      case LIST_MAP, LIST_SET -> {
        Field ef = f.elementField();
        for (JsonNode item : v) {
          FieldPath ip = path.child(itemElement(f, s, item));
          collect(item, ef, ip, out);
          out.add(ip);
        }
      }
    }
  }

  /**
   * The set plus every declared struct field that has owned children (upstream's
   * EnsureNamedFieldsAreMembers), so that pruning can remove whole fields.
   */
  static FieldSet withNamedFields(FieldSet s, Field root) {
    FieldSet out = s.copy();
    for (FieldPath p : s.paths()) {
      Field f = root;
      FieldPath at = FieldPath.ROOT;
      for (FieldPath.Element e : p.elements()) {
        FieldPath next = at.child(e);
        if (e instanceof FieldPath.Field fe) {
          Type t = objectType(f);
          if (t.isStruct() && t.declares(fe.name()) && next.size() < p.size()) {
            out.add(next);
          }
          f = t.field(fe.name());
        } else {
          f = f.elementField();
        }
        at = next;
      }
    }
    return out;
  }

  // ---- validation

  /**
   * What structured-merge-diff refuses in an applied configuration: fields a struct does not
   * declare and list-map items with the same key. Messages as upstream's ValidationErrors.
   */
  static List<String> validate(JsonNode v, Field f) {
    List<String> errors = new ArrayList<>();
    // Whether there is an error does not depend on the order keys are visited in; which errors
    // are reported does (an object's walk stops at its first undeclared field), so only a
    // configuration with errors is walked again in upstream's order, with sorted keys.
    check(v, f, new ArrayList<>(), errors, false);
    if (!errors.isEmpty()) {
      errors.clear();
      check(v, f, new ArrayList<>(), errors, true);
    }
    return errors;
  }

  /** Walks with a stack of path elements; paths are built only for errors. */
  private static void check(
      JsonNode v, Field f, List<FieldPath.Element> at, List<String> errors, boolean sorted) {
    if (v == null || v.isNull()) {
      return;
    }
    if (v.isObject() && f.kind() != Kind.LIST) {
      Type t = objectType(f);
      java.util.Collection<String> keys = v.propertyNames();
      if (sorted) {
        List<String> l = new ArrayList<>(keys);
        java.util.Collections.sort(l);
        keys = l;
      }
      for (String k : keys) {
        at.add(new FieldPath.Field(k));
        if (t.isStruct() && !t.declares(k)) {
          errors.add(new FieldPath(at) + ": field not declared in schema");
          at.remove(at.size() - 1);
          return;
        }
        check(v.get(k), t.field(k), at, errors, sorted);
        at.remove(at.size() - 1);
      }
    } else if (v.isArray() && f.kind() == Kind.LIST) {
      Shape s = shape(f, v);
      Set<FieldPath.Element> seen = s == Shape.LIST_MAP ? new HashSet<>() : null;
      int i = 0;
      for (JsonNode item : v) {
        FieldPath.Element pe =
            s == Shape.LIST_MAP ? itemElement(f, s, item) : new FieldPath.Index(i);
        if (seen != null && !seen.add(pe)) {
          errors.add(new FieldPath(at) + ": duplicate entries for key " + pe.display());
        }
        at.add(pe);
        check(item, f.elementField(), at, errors, sorted);
        at.remove(at.size() - 1);
        i++;
      }
    }
  }

  // ---- merge

  /** The applied configuration rhs merged into lhs (either may be null = absent). */
  static JsonNode merge(JsonNode lhs, JsonNode rhs, Field f) {
    if (lhs == null || lhs.isNull()) {
      return rhs; // shared: neither input is modified, apply copies its result once
    }
    if (rhs == null) {
      return lhs;
    }
    Shape sl = shape(f, lhs);
    Shape sr = shape(f, rhs);
    if (sl != sr || sr == Shape.ATOMIC) {
      return rhs;
    }
    if (sr == Shape.OBJECT) {
      // copy on write: untouched subtrees are shared with lhs, which callers never modify
      ObjectNode out = Json.object();
      out.setAll((ObjectNode) lhs);
      Type t = objectType(f);
      for (Map.Entry<String, JsonNode> e : rhs.properties()) {
        if (e.getValue().isNull()) {
          out.remove(e.getKey());
        } else {
          out.set(e.getKey(), merge(out.get(e.getKey()), e.getValue(), t.field(e.getKey())));
        }
      }
      return out;
    }
    return mergeList((ArrayNode) lhs, (ArrayNode) rhs, f, sr);
  }

  /** Upstream's list merge order: rhs order, with lhs-only items kept where they were. */
  private static ArrayNode mergeList(ArrayNode lhs, ArrayNode rhs, Field f, Shape s) {
    Map<FieldPath.Element, JsonNode> l = index(lhs, f, s);
    Map<FieldPath.Element, JsonNode> r = index(rhs, f, s);
    List<FieldPath.Element> lpe = new ArrayList<>(l.keySet());
    List<FieldPath.Element> rpe = new ArrayList<>(r.keySet());
    List<FieldPath.Element> shared = new ArrayList<>();
    for (FieldPath.Element pe : rpe) {
      if (l.containsKey(pe)) {
        shared.add(pe);
      }
    }
    int sharedAt = 0;
    FieldPath.Element nextShared = shared.isEmpty() ? null : shared.get(sharedAt++);
    Set<FieldPath.Element> merged = new HashSet<>();
    ArrayNode out = Json.array();
    Field ef = f.elementField();
    int li = 0;
    int ri = 0;
    while (li < lpe.size() || ri < rpe.size()) {
      if (li < lpe.size() && ri < rpe.size()) {
        FieldPath.Element pe = lpe.get(li);
        if (pe.equals(rpe.get(ri))) {
          merged.add(pe);
          out.add(merge(l.get(pe), r.get(pe), ef));
          li++;
          ri++;
          nextShared = sharedAt < shared.size() ? shared.get(sharedAt++) : null;
          continue;
        }
        if (r.containsKey(pe) && nextShared != null && !nextShared.equals(pe)) {
          li++;
          continue;
        }
      }
      if (li < lpe.size()) {
        FieldPath.Element pe = lpe.get(li);
        if (!r.containsKey(pe)) {
          out.add(l.get(pe));
          li++;
          continue;
        } else if (merged.contains(pe)) {
          li++;
        }
      }
      if (ri < rpe.size()) {
        FieldPath.Element pe = rpe.get(ri);
        merged.add(pe);
        out.add(merge(l.get(pe), r.get(pe), ef));
        ri++;
      }
    }
    return out;
  }

  private static Map<FieldPath.Element, JsonNode> index(ArrayNode a, Field f, Shape s) {
    Map<FieldPath.Element, JsonNode> m = new LinkedHashMap<>();
    for (JsonNode item : a) {
      m.putIfAbsent(itemElement(f, s, item), item);
    }
    return m;
  }

  // ---- compare

  /** Fields added, modified and removed from lhs to rhs. */
  record Comparison(FieldSet added, FieldSet modified, FieldSet removed, boolean skipSame) {
    Comparison(FieldSet added, FieldSet modified, FieldSet removed) {
      this(added, modified, removed, true);
    }

    boolean isSame() {
      return added.isEmpty() && modified.isEmpty() && removed.isEmpty();
    }

    /** Added and modified fields; the result is only read (it may be {@code added} itself). */
    FieldSet changed() {
      return modified.isEmpty() ? added : added.union(modified);
    }
  }

  /**
   * Compares lhs to rhs. A typed side reads as the Go object it stands for: fields a Go value
   * always carries (value structs, fields without omitempty) count as present when missing, so
   * that, as upstream, a create adds {@code .metadata.labels} but not {@code .spec}.
   */
  static Comparison compare(
      JsonNode lhs, JsonNode rhs, Field root, boolean lhsTyped, boolean rhsTyped) {
    return compare(lhs, rhs, root, lhsTyped, rhsTyped, true);
  }

  /**
   * As above; {@code skipSame} false walks equal subtrees too (the reference the tests compare the
   * shortcut with).
   */
  static Comparison compare(
      JsonNode lhs,
      JsonNode rhs,
      Field root,
      boolean lhsTyped,
      boolean rhsTyped,
      boolean skipSame) {
    Comparison c = new Comparison(new FieldSet(), new FieldSet(), new FieldSet(), skipSame);
    compareAt(lhs, rhs, root, FieldPath.ROOT, c, lhsTyped, rhsTyped);
    return c;
  }

  private static final ObjectNode EMPTY = Json.object();

  /** The JSON a Go zero value of the field shows ({} for value structs, else null). */
  private static JsonNode zero(Field f) {
    return f.kind() == Kind.STRUCT ? EMPTY : Json.NODES.nullNode();
  }

  private static void compareAt(
      JsonNode l, JsonNode r, Field f, FieldPath path, Comparison c, boolean zl, boolean zr) {
    if (!noDifference(l, r, c, zl, zr)) {
      compareDifferent(l, r, f, path, c, zl, zr);
    }
  }

  /**
   * {@link #compareAt} for a pair whose caller found {@link #noDifference} false: not tested again
   * (for two unequal containers that test walks them up to their first difference).
   */
  private static void compareDifferent(
      JsonNode l, JsonNode r, Field f, FieldPath path, Comparison c, boolean zl, boolean zr) {
    JsonNode lv = l == null || l.isNull() ? null : l;
    JsonNode rv = r == null || r.isNull() ? null : r;
    Shape s;
    if (lv != null && rv != null) {
      s = shape(f, lv);
      if (s != shape(f, rv)) {
        s = Shape.ATOMIC;
      }
    } else if (lv != null || rv != null) {
      s = shape(f, lv != null ? lv : rv);
    } else {
      s = Shape.ATOMIC;
    }
    boolean empty = (lv == null || lv.isEmpty()) && (rv == null || rv.isEmpty());
    if (s == Shape.ATOMIC || empty) {
      leaf(l, r, path, c);
      return;
    }
    if (s == Shape.OBJECT) {
      // Each key of either side once, then the fields a Go value always has (the order of the
      // visits does not matter: the sets are sorted).
      Type t = objectType(f);
      // Entries rather than keys: each value is then looked up in the other object only.
      if (lv != null) {
        for (Map.Entry<String, JsonNode> e : lv.properties()) {
          String k = e.getKey();
          JsonNode rc = rv == null ? null : rv.get(k);
          compareField(k, e.getValue(), rc, lv, rv, t, path, c, zl, zr);
        }
      }
      if (rv != null) {
        for (Map.Entry<String, JsonNode> e : rv.properties()) {
          String k = e.getKey();
          if (lv == null || !lv.has(k)) {
            compareField(k, null, e.getValue(), lv, rv, t, path, c, zl, zr);
          }
        }
      }
      if (t.isStruct() && ((lv != null && zl) || (rv != null && zr))) {
        for (Field zf : t.zeroPresentFields) {
          String k = zf.name();
          if ((lv == null || !lv.has(k)) && (rv == null || !rv.has(k))) {
            compareField(k, null, null, lv, rv, t, path, c, zl, zr);
          }
        }
      }
    } else {
      Map<FieldPath.Element, JsonNode> li = lv == null ? Map.of() : index((ArrayNode) lv, f, s);
      Map<FieldPath.Element, JsonNode> ri = rv == null ? Map.of() : index((ArrayNode) rv, f, s);
      Set<FieldPath.Element> all = new LinkedHashSet<>(li.keySet());
      all.addAll(ri.keySet());
      for (FieldPath.Element pe : all) {
        JsonNode le = li.get(pe);
        JsonNode re = ri.get(pe);
        if (!noDifference(le, re, c, zl, zr)) {
          compareDifferent(le, re, f.elementField(), path.child(pe), c, zl, zr);
        }
      }
    }
    if (l == null) {
      c.added.add(path);
    } else if (r == null) {
      c.removed.add(path);
    }
  }

  /**
   * Whether {@code l} and {@code r} have no difference without walking them: one subtree read the
   * same way on both sides (apply's merge shares every subtree the configuration does not touch
   * with the live object), or, when {@code c} skips them, equal containers read the same way (a PUT
   * resends the stored object with a few fields changed, and this test is cheaper than walking it
   * path by path). Callers test it before building a child's path and field: most children of an
   * update are the stored ones.
   */
  private static boolean noDifference(
      JsonNode l, JsonNode r, Comparison c, boolean zl, boolean zr) {
    if (l == null || zl != zr) {
      return false;
    }
    return l == r || (c.skipSame && r != null && l.isContainer() && Json.same(l, r));
  }

  /** Compares the values {@code lc} and {@code rc} (null: absent) under key k of lv and rv. */
  private static void compareField(
      String k,
      JsonNode lc,
      JsonNode rc,
      JsonNode lv,
      JsonNode rv,
      Type t,
      FieldPath path,
      Comparison c,
      boolean zl,
      boolean zr) {
    if (noDifference(lc, rc, c, zl, zr)) {
      return; // both present: no zero value would replace either
    }
    Field cf = t.field(k);
    FieldPath child = path.child(new FieldPath.Field(k));
    if (cf.zeroPresent() && t.isStruct() && (lc == null || rc == null)) {
      // a Go zero value stands in for an absent side, and may equal the other side
      lc = lc == null && lv != null && zl ? zero(cf) : lc;
      rc = rc == null && rv != null && zr ? zero(cf) : rc;
      compareAt(lc, rc, cf, child, c, zl, zr);
    } else {
      compareDifferent(lc, rc, cf, child, c, zl, zr);
    }
  }

  private static void leaf(JsonNode l, JsonNode r, FieldPath path, Comparison c) {
    if (l == null) {
      c.added.add(path);
    } else if (r == null) {
      c.removed.add(path);
    } else if (!Json.same(l, r)) {
      c.modified.add(path);
    }
  }

  // ---- removal and zero values

  /** Removes the value at path from obj (no-op when absent). */
  static void remove(ObjectNode obj, FieldPath path, Field root) {
    if (path.size() == 0) {
      return;
    }
    JsonNode container = obj;
    Field f = root;
    List<FieldPath.Element> els = path.elements();
    for (int i = 0; i < els.size(); i++) {
      FieldPath.Element e = els.get(i);
      boolean last = i == els.size() - 1;
      if (e instanceof FieldPath.Field fe) {
        if (!(container instanceof ObjectNode o) || !o.has(fe.name())) {
          return;
        }
        if (last) {
          o.remove(fe.name());
          return;
        }
        f = objectType(f).field(fe.name());
        container = o.get(fe.name());
      } else {
        if (!(container instanceof ArrayNode a)) {
          return;
        }
        int idx = find(a, f, e);
        if (idx < 0) {
          return;
        }
        if (last) {
          a.remove(idx);
          return;
        }
        f = f.elementField();
        container = a.get(idx);
      }
    }
  }

  private static int find(ArrayNode a, Field f, FieldPath.Element e) {
    if (e instanceof FieldPath.Index i) {
      return i.index() < a.size() ? i.index() : -1;
    }
    Shape s = shape(f, a);
    for (int i = 0; i < a.size(); i++) {
      if (s != Shape.ATOMIC && itemElement(f, s, a.get(i)).equals(e)) {
        return i;
      }
    }
    return -1;
  }
}
