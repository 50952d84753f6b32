package io.jdra.apiserver.rest;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.storage.StoredObject;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.BigIntegerNode;
import tools.jackson.databind.node.BooleanNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.LongNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * The trees the most recent stored versions were serialized from, so that a write following another
 * one to the same object (a pod's status apply and binding, a claim's finalizer and status updates)
 * reads or copies the tree instead of parsing the bytes the last write just serialized.
 *
 * <p>A tree is handed out only as parsing the bytes would give it, node classes included. A tree
 * whose serialization parses back to the same classes (nearly all: {@link Json#written}) is kept
 * with its resourceVersion in place and {@linkplain #read shared} with the writes that only read
 * it, or {@linkplain #tree copied}; any other tree is copied with its integers turned into the
 * class the parser picks for their value, and one with a fraction is parsed as before. A remembered
 * tree is never changed: writes give up their tree when they store it ({@link
 * ObjectService#prepare}), and those that read a shared one change only copies (with assertions on,
 * each update checks that the tree it read still serializes to the stored bytes). Bounded: the
 * oldest of {@code capacity} versions is dropped. Thread-safe.
 */
final class RecentTrees {
  private final Map<byte[], Remembered> byJson = new ConcurrentHashMap<>(); // identity keys
  private final AtomicReferenceArray<byte[]> order;
  private final AtomicLong next = new AtomicLong();

  /**
   * A tree whose metadata.resourceVersion holds {@code marker} where the bytes hold the version;
   * or, {@code shared}, the tree exactly as parsing the bytes gives it (marker null).
   */
  private record Remembered(ObjectNode tree, String marker, boolean shared, int versionAt) {}

  RecentTrees(int capacity) {
    this.order = new AtomicReferenceArray<>(capacity);
  }

  /**
   * Remembers the tree {@code stored} was serialized from, with {@code marker} where the bytes have
   * the resourceVersion.
   *
   * @param asParsed whether parsing the serialization gives the tree's node classes back: the tree
   *     then takes the stored resourceVersion and is shared with readers
   * @param versionAt where the stored bytes hold the resourceVersion's digits
   */
  void remember(
      StoredObject stored, ObjectNode tree, String marker, boolean asParsed, int versionAt) {
    byte[] key = stored.json();
    Remembered r;
    if (asParsed && tree.get("metadata") instanceof ObjectNode meta) {
      meta.put("resourceVersion", Long.toString(stored.resourceVersion()));
      r = new Remembered(tree, null, true, versionAt);
    } else {
      r = new Remembered(tree, marker, false, versionAt);
    }
    byJson.put(key, r);
    int slot = (int) (next.getAndIncrement() % order.length());
    byte[] dropped = order.getAndSet(slot, key);
    if (dropped != null) {
      byJson.remove(dropped);
    }
  }

  /**
   * The object as {@code Json.parseObject(stored.json())} gives it, for reading only: the
   * remembered tree itself when it is shared, which nobody may change (nor any part of it), else a
   * tree of its own.
   */
  ObjectNode read(StoredObject stored) {
    Remembered r = byJson.get(stored.json());
    if (r != null && r.shared) {
      assert intact(stored, r.tree) : "a shared tree was changed: " + stored;
      return r.tree;
    }
    return tree(stored, r);
  }

  /**
   * Where the bytes of {@code stored} hold its resourceVersion's digits when {@code tree} is its
   * shared tree, which serializes to exactly those bytes (see {@link #intact}); else -1.
   */
  int versionAt(StoredObject stored, ObjectNode tree) {
    Remembered r = byJson.get(stored.json());
    return r != null && r.shared && r.tree == tree ? r.versionAt : -1;
  }

  /** The object as {@code Json.parseObject(stored.json())} gives it: a tree of its own. */
  ObjectNode tree(StoredObject stored) {
    return tree(stored, byJson.get(stored.json()));
  }

  private static ObjectNode tree(StoredObject stored, Remembered r) {
    if (r != null && r.shared) {
      return r.tree.deepCopy(); // its classes are the parser's: a copy keeps them
    }
    if (r != null) {
      ObjectNode copy = (ObjectNode) copyIfParsedAlike(r.tree);
      if (copy != null && copy.get("metadata") instanceof ObjectNode meta) {
        if (meta.get("resourceVersion") instanceof StringNode v && v.stringValue() == r.marker) {
          meta.put("resourceVersion", Long.toString(stored.resourceVersion()));
          return copy;
        }
      }
    }
    return Json.parseObject(stored.json());
  }

  /**
   * Whether {@code tree}, when it is the shared tree of {@code stored}, still serializes to the
   * stored bytes (a tree of one's own always passes): for assertions.
   */
  boolean intact(StoredObject stored, ObjectNode tree) {
    Remembered r = byJson.get(stored.json());
    return r == null
        || r.tree != tree
        || !r.shared
        || Arrays.equals(Json.bytes(tree), stored.json());
  }

  /**
   * A deep copy of {@code n} as parsing its serialization gives it, or null when that is not known
   * without parsing (fractions).
   */
  static JsonNode copyIfParsedAlike(JsonNode n) {
    if (n instanceof ObjectNode o) {
      ObjectNode c = Json.object();
      for (Map.Entry<String, JsonNode> e : o.properties()) {
        JsonNode v = copyIfParsedAlike(e.getValue());
        if (v == null) {
          return null;
        }
        c.set(e.getKey(), v);
      }
      return c;
    }
    if (n instanceof ArrayNode a) {
      ArrayNode c = JsonNodeFactory.instance.arrayNode(a.size());
      for (JsonNode item : a) {
        JsonNode v = copyIfParsedAlike(item);
        if (v == null) {
          return null;
        }
        c.add(v);
      }
      return c;
    }
    return parsedAlike(n); // value nodes are immutable: shared, as deepCopy does
  }

  /**
   * The value node parsing {@code n}'s serialization gives: itself, or for an integer the class the
   * parser picks for its value (a default written as a long reads back as an int); null for
   * anything else (fractions, whose text depends on their class).
   */
  private static JsonNode parsedAlike(JsonNode n) {
    // instanceof tests rather than a type switch, which C1 (jdra bench) runs as a call
    if (n instanceof StringNode || n instanceof IntNode || n instanceof BooleanNode) {
      return n;
    }
    if (n instanceof NullNode) {
      return n;
    }
    if (n.isIntegralNumber()) {
      if (n.canConvertToInt()) {
        return IntNode.valueOf(n.intValue());
      }
      if (n.canConvertToLong()) {
        return n instanceof LongNode ? n : LongNode.valueOf(n.longValue());
      }
      return n instanceof BigIntegerNode ? n : BigIntegerNode.valueOf(n.bigIntegerValue());
    }
    return null;
  }
}
