package io.jdra.apiserver.admission;

import java.util.Iterator;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A JSON tree as a map key that is equal only to a tree a decoder cannot tell apart from it: the
 * same node classes, values and key order (Jackson's own equality ignores key order, which a
 * decoded map keeps). Holds its own copy, so later changes to the given tree do not reach it.
 */
final class TreeKey {
  private final JsonNode tree;
  private final int hash;

  private TreeKey(JsonNode tree, int hash) {
    this.tree = tree;
    this.hash = hash;
  }

  /** A key for looking up: shares {@code tree}, which must not change while the key is used. */
  static TreeKey lookup(JsonNode tree) {
    return new TreeKey(tree, hash(tree));
  }

  /** This key with a copy of its tree, to be kept in a map. */
  TreeKey kept() {
    return new TreeKey(tree.deepCopy(), hash);
  }

  private static int hash(JsonNode n) {
    int h = n.getClass().hashCode();
    if (n.isObject()) {
      for (Map.Entry<String, JsonNode> e : n.properties()) {
        h = 31 * (31 * h + e.getKey().hashCode()) + hash(e.getValue());
      }
    } else if (n.isArray()) {
      for (JsonNode c : n.values()) {
        h = 31 * h + hash(c);
      }
    } else {
      h = 31 * h + n.hashCode();
    }
    return h;
  }

  private static boolean same(JsonNode a, JsonNode b) {
    if (a.getClass() != b.getClass() || a.size() != b.size()) {
      return false;
    }
    if (a.isObject()) {
      Iterator<Map.Entry<String, JsonNode>> x = a.properties().iterator();
      Iterator<Map.Entry<String, JsonNode>> y = b.properties().iterator();
      while (x.hasNext()) {
        Map.Entry<String, JsonNode> ex = x.next();
        Map.Entry<String, JsonNode> ey = y.next();
        if (!ex.getKey().equals(ey.getKey()) || !same(ex.getValue(), ey.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (a.isArray()) {
      for (int i = 0; i < a.size(); i++) {
        if (!same(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TreeKey k && (k == this || (k.hash == hash && same(tree, k.tree)));
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
