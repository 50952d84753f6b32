package io.jdra.apiserver.admission;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Small JSON-tree helpers for defaulting, mirroring Go's notion of "unset": an absent or null field
 * is unset for every type; an empty string or zero is unset only where the Go field is not a
 * pointer. Stateless.
 */
final class Trees {
  private Trees() {}

  /** The object at {@code field}, or null when absent or not an object. */
  static ObjectNode obj(JsonNode parent, String field) {
    return parent != null && parent.get(field) instanceof ObjectNode o ? o : null;
  }

  /** The array at {@code field}, or null when absent or not an array. */
  static ArrayNode arr(JsonNode parent, String field) {
    return parent != null && parent.get(field) instanceof ArrayNode a ? a : null;
  }

  /** The object at {@code field}, created when absent or null (a Go pointer to a struct). */
  static ObjectNode ensure(ObjectNode parent, String field) {
    JsonNode n = parent.get(field);
    if (n instanceof ObjectNode o) {
      return o;
    }
    return n == null || n.isNull() ? parent.putObject(field) : null;
  }

  static boolean unset(JsonNode parent, String field) {
    JsonNode n = parent.get(field);
    return n == null || n.isNull();
  }

  /** A Go string field: absent, null or empty is unset. */
  static boolean unsetString(JsonNode parent, String field) {
    JsonNode n = parent.get(field);
    return n == null || n.isNull() || (n.isString() && n.asString().isEmpty());
  }

  /** A Go integer field without pointer: absent, null or 0 is unset. */
  static boolean unsetInt(JsonNode parent, String field) {
    JsonNode n = parent.get(field);
    return n == null || n.isNull() || (n.isNumber() && n.asLong() == 0);
  }

  /** The string at {@code field}, or "" when absent or not a string. */
  static String str(JsonNode parent, String field) {
    JsonNode n = parent == null ? null : parent.get(field);
    return n != null && n.isString() ? n.asString() : "";
  }

  static void defaultString(ObjectNode o, String field, String value) {
    if (unsetString(o, field)) {
      o.put(field, value);
    }
  }

  static void defaultInt(ObjectNode o, String field, long value) {
    if (unsetInt(o, field)) {
      putInteger(o, field, value);
    }
  }

  /** A Go pointer to an integer: only absent or null is unset. */
  static void defaultIntPointer(ObjectNode o, String field, long value) {
    if (unset(o, field)) {
      putInteger(o, field, value);
    }
  }

  /**
   * Sets an integer in the node class the parser reads for its value (an int when it fits), so that
   * a defaulted tree is what parsing its serialization gives: the registry then shares it with the
   * next write instead of copying it ({@code RecentTrees}).
   */
  static void putInteger(ObjectNode o, String field, long value) {
    if (value == (int) value) {
      o.put(field, (int) value);
    } else {
      o.put(field, value);
    }
  }

  static void defaultBoolPointer(ObjectNode o, String field, boolean value) {
    if (unset(o, field)) {
      o.put(field, value);
    }
  }

  /** Runs {@code each} on every object element of the array at {@code field}. */
  static void eachObject(JsonNode parent, String field, java.util.function.Consumer<ObjectNode> f) {
    ArrayNode a = arr(parent, field);
    if (a == null) {
      return;
    }
    for (JsonNode e : a) {
      if (e instanceof ObjectNode o) {
        f.accept(o);
      }
    }
  }
}
