package io.jdra.apiserver.patch;

import java.util.Collection;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A set of field paths (the members a manager owns), with set algebra and the FieldsV1 encoding of
 * managedFields ({@code {"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},...}}}}}). Mutable;
 * not thread-safe (used within one call).
 */
final class FieldSet {
  private final TreeSet<FieldPath> paths = new TreeSet<>();

  FieldSet() {}

  FieldSet(Collection<FieldPath> c) {
    paths.addAll(c);
  }

  FieldSet copy() {
    return new FieldSet(paths);
  }

  void add(FieldPath p) {
    paths.add(p);
  }

  boolean contains(FieldPath p) {
    return paths.contains(p);
  }

  boolean isEmpty() {
    return paths.isEmpty();
  }

  NavigableSet<FieldPath> paths() {
    return paths;
  }

  FieldSet union(FieldSet o) {
    FieldSet s = copy();
    s.paths.addAll(o.paths);
    return s;
  }

  FieldSet minus(FieldSet o) {
    FieldSet s = copy();
    s.paths.removeAll(o.paths);
    return s;
  }

  FieldSet intersect(FieldSet o) {
    FieldSet s = copy();
    s.paths.retainAll(o.paths);
    return s;
  }

  FieldSet filter(Predicate<FieldPath> keep) {
    // a copy of a sorted set is built in linear time; filters drop few paths
    FieldSet s = copy();
    s.paths.removeIf(keep.negate());
    return s;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldSet s && s.paths.equals(paths);
  }

  @Override
  public int hashCode() {
    return paths.hashCode();
  }

  @Override
  public String toString() {
    return paths.toString();
  }

  /** The FieldsV1 JSON object: children sorted as upstream, "." first for owned parents. */
  ObjectNode encode() {
    Node root = new Node();
    for (FieldPath p : paths) {
      Node n = root;
      for (FieldPath.Element e : p.elements()) {
        n = n.children.computeIfAbsent(e, k -> new Node());
      }
      n.member = true;
    }
    return root.encode(false);
  }

  /** Parses FieldsV1; IllegalArgumentException when it is not a valid encoding. */
  static FieldSet decode(JsonNode fieldsV1) {
    FieldSet s = new FieldSet();
    if (fieldsV1 == null || fieldsV1.isNull()) {
      return s;
    }
    if (!fieldsV1.isObject()) {
      throw new IllegalArgumentException("fieldsV1 is not an object");
    }
    decodeInto(s, FieldPath.ROOT, fieldsV1);
    return s;
  }

  private static void decodeInto(FieldSet s, FieldPath at, JsonNode node) {
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      FieldPath.Element el = FieldPath.decode(e.getKey());
      if (el == null) {
        s.add(at);
        continue;
      }
      FieldPath child = at.child(el);
      JsonNode v = e.getValue();
      if (!v.isObject()) {
        throw new IllegalArgumentException("fieldsV1 value is not an object at " + child);
      }
      if (v.isEmpty()) {
        s.add(child);
      } else {
        decodeInto(s, child, v);
      }
    }
  }

  private static final class Node {
    boolean member;
    final TreeMap<FieldPath.Element, Node> children = new TreeMap<>();

    ObjectNode encode(boolean includeSelf) {
      ObjectNode o = Json.object();
      if (includeSelf && !children.isEmpty()) {
        o.set(".", Json.object());
      }
      for (Map.Entry<FieldPath.Element, Node> e : children.entrySet()) {
        Node c = e.getValue();
        o.set(e.getKey().encode(), c.children.isEmpty() ? Json.object() : c.encode(c.member));
      }
      return o;
    }
  }
}
