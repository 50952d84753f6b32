package io.jdra.apiserver.admission;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.BooleanNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.LongNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * What the hand-written tree readers ({@link ClaimStatusTrees}, {@link MetaTrees}) share: each
 * value is read only when it has the JSON type and node class Jackson would read the same way;
 * anything else gives up the whole read ({@link #read}), and the caller decodes with Jackson.
 */
final class TreeReads {
  private TreeReads() {}

  /** Thrown inside a read to give up on the tree; no stack trace (it is control flow). */
  private static final class Unread extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unread() {
      super(null, null, false, false);
    }
  }

  private static final Unread UNREAD = new Unread();

  /** What a read's default branch throws for a name it does not read. */
  static RuntimeException unread() {
    return UNREAD;
  }

  /**
   * {@code hand}, a model a reader here made, or Jackson's when the reader gave up (null); with
   * assertions on, a hand-made model is compared with Jackson's.
   */
  static <T> T orJackson(T hand, Supplier<T> jackson) {
    if (hand == null) {
      return jackson.get();
    }
    assert hand.equals(jackson.get()) : "read by hand differs from Jackson: " + hand;
    return hand;
  }

  /** {@code reader}'s model of {@code tree}, or null when it gave up. */
  static <T> T read(ObjectNode tree, Function<ObjectNode, T> reader) {
    try {
      return reader.apply(tree);
    } catch (Unread e) {
      return null;
    }
  }

  static ObjectNode object(JsonNode n) {
    if (n instanceof ObjectNode o) {
      return o;
    }
    throw UNREAD;
  }

  static String string(JsonNode n) {
    if (n instanceof StringNode s) {
      return s.stringValue();
    }
    throw UNREAD;
  }

  static Long integer(JsonNode n) {
    if (n instanceof IntNode || n instanceof LongNode) {
      return n.longValue();
    }
    throw UNREAD;
  }

  static Boolean bool(JsonNode n) {
    if (n instanceof BooleanNode b) {
      return b.booleanValue();
    }
    throw UNREAD;
  }

  /** A JSON array read item by item into a new list, as Jackson reads a list property. */
  static <T> List<T> list(JsonNode n, Function<JsonNode, T> item) {
    if (!(n instanceof ArrayNode a)) {
      throw UNREAD;
    }
    List<T> out = new ArrayList<>(a.size());
    for (JsonNode i : a) {
      out.add(item.apply(i));
    }
    return out;
  }

  /** A map of strings, in the object's order (Jackson's map is a LinkedHashMap too). */
  static Map<String, String> strings(ObjectNode o) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      out.put(e.getKey(), string(e.getValue()));
    }
    return out;
  }
}
