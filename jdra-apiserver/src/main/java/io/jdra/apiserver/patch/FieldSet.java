package io.jdra.apiserver.patch;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
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

  /** The set without the paths of either set: one copy instead of two. */
  FieldSet minus(FieldSet a, FieldSet b) {
    FieldSet s = copy();
    s.paths.removeAll(a.paths);
    s.paths.removeAll(b.paths);
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

  /** Whether the two sets share a path (looked up from the smaller one). */
  boolean intersects(FieldSet o) {
    FieldSet small = paths.size() <= o.paths.size() ? this : o;
    FieldSet large = small == this ? o : this;
    for (FieldPath p : small.paths) {
      if (large.paths.contains(p)) {
        return true;
      }
    }
    return false;
  }

  /** Removes the paths of {@code o} from this set itself (for a set only its builder holds). */
  void removeAll(FieldSet o) {
    if (intersects(o)) {
      paths.removeAll(o.paths);
    }
  }

  /**
   * Removes {@code prefix} and the paths under it from this set itself (for a set only its builder
   * holds): they sort together right after it, so this is a range removal.
   */
  void removePrefix(FieldPath prefix) {
    for (Iterator<FieldPath> it = paths.tailSet(prefix, true).iterator(); it.hasNext(); ) {
      if (!it.next().startsWith(prefix)) {
        break;
      }
      it.remove();
    }
  }

  /**
   * The set without {@code prefix} and the paths under it, which sort together right after it: a
   * copy and a range removal rather than a test of every path.
   */
  FieldSet withoutPrefix(FieldPath prefix) {
    FieldSet s = copy();
    for (Iterator<FieldPath> it = s.paths.tailSet(prefix, true).iterator(); it.hasNext(); ) {
      if (!it.next().startsWith(prefix)) {
        break;
      }
      it.remove();
    }
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

  /**
   * The FieldsV1 JSON object: children sorted as upstream, "." first for owned parents. Written in
   * one pass over the sorted paths, which list a parent before its children and children in the
   * order of their elements, keeping the objects of the current path's ancestors on a stack.
   */
  ObjectNode encode() {
    ObjectNode root = new Encoded(this);
    FieldPath at = FieldPath.ROOT; // the previous path
    List<ObjectNode> objects = new ArrayList<>(); // the object of each of its prefixes
    List<Boolean> members = new ArrayList<>(); // whether that prefix is in the set
    for (FieldPath p : paths) {
      int n = p.size();
      int common = 0;
      while (common < at.size()
          && common < n
          && (at.element(common) == p.element(common)
              || at.element(common).compareTo(p.element(common)) == 0)) {
        common++;
      }
      for (int i = at.size() - 1; i >= common; i--) {
        objects.remove(i);
        members.remove(i);
      }
      for (int i = common; i < n; i++) {
        ObjectNode parent = i == 0 ? root : objects.get(i - 1);
        if (i > 0 && members.get(i - 1) && parent.isEmpty()) {
          parent.set(".", Json.object()); // an owned parent's first child
        }
        ObjectNode child = Json.object();
        parent.set(p.element(i).encode(), child);
        objects.add(child);
        members.add(i == n - 1);
      }
      at = p;
    }
    return root;
  }

  /**
   * Parses FieldsV1; IllegalArgumentException when it is not a valid encoding. FieldsV1 that {@link
   * #encode} made (a stored object's, which the next write of the object reads) gives back the set
   * it encodes, shared: no step changes a set in place once it is an entry's (they build new sets
   * and trim in place only those), so that set is what decoding the JSON would build.
   */
  static FieldSet decode(JsonNode fieldsV1) {
    if (fieldsV1 instanceof Encoded e) {
      assert e.set.paths.equals(decodeWalk(e).paths) : "FieldsV1 changed after it was encoded";
      return e.set;
    }
    return decodeWalk(fieldsV1);
  }

  /**
   * FieldsV1 as {@link #encode} writes it, remembering the set it encodes: stored trees are never
   * changed, so as long as the object is the set's encoding, and a copy of it is a plain node. Its
   * bytes are written once too (an entry's FieldsV1 recurs in the object's later versions).
   */
  private static final class Encoded extends io.jdra.apiserver.meta.WrittenOnce {
    private static final long serialVersionUID = 1L;

    private final transient FieldSet set;

    Encoded(FieldSet set) {
      this.set = set;
    }
  }

  /** Parses FieldsV1 by walking it. */
  static FieldSet decodeWalk(JsonNode fieldsV1) {
    FieldSet s = new FieldSet();
    if (fieldsV1 == null || fieldsV1.isNull()) {
      return s;
    }
    if (!fieldsV1.isObject()) {
      throw new IllegalArgumentException("fieldsV1 is not an object");
    }
    List<FieldPath> read = new ArrayList<>();
    decodeInto(read, FieldPath.ROOT, fieldsV1);
    // The server's own encoding lists the paths in order: then the set is built in one pass.
    boolean sorted = true;
    for (int i = 1; i < read.size() && sorted; i++) {
      sorted = read.get(i - 1).compareTo(read.get(i)) < 0;
    }
    if (sorted) {
      s.paths.addAll(new SortedList(read));
    } else {
      s.paths.addAll(read);
    }
    return s;
  }

  private static void decodeInto(List<FieldPath> s, FieldPath at, JsonNode node) {
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

  /**
   * Paths known to be in strictly ascending order, shown as a sorted set so that {@link
   * TreeSet#addAll} builds its tree from them in linear time instead of inserting one by one. Only
   * what that reads is implemented.
   */
  private static final class SortedList extends java.util.AbstractSet<FieldPath>
      implements java.util.SortedSet<FieldPath> {
    private final List<FieldPath> paths;

    SortedList(List<FieldPath> paths) {
      this.paths = paths;
    }

    @Override
    public Iterator<FieldPath> iterator() {
      return java.util.Collections.unmodifiableList(paths).iterator();
    }

    @Override
    public int size() {
      return paths.size();
    }

    @Override
    public java.util.Comparator<? super FieldPath> comparator() {
      return null; // natural order, as the TreeSet's
    }

    @Override
    public java.util.SortedSet<FieldPath> subSet(FieldPath from, FieldPath to) {
      throw new UnsupportedOperationException();
    }

    @Override
    public java.util.SortedSet<FieldPath> headSet(FieldPath to) {
      throw new UnsupportedOperationException();
    }

    @Override
    public java.util.SortedSet<FieldPath> tailSet(FieldPath from) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FieldPath first() {
      return paths.get(0);
    }

    @Override
    public FieldPath last() {
      return paths.get(paths.size() - 1);
    }
  }
}
