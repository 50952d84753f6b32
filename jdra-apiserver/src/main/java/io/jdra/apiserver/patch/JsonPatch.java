package io.jdra.apiserver.patch;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * RFC 6902 JSON patch with the behaviour of the library kube-apiserver uses (evanphx/json-patch
 * v4): the empty path does not address the document, negative array indexes count from the end,
 * {@code test} of a missing path passes only for a null value. Decoding errors are 400, errors
 * while applying are 422 with upstream's generic message (the detail is the exception cause).
 */
final class JsonPatch {
  /** kube-apiserver's maxJSONPatchOperations. */
  static final int MAX_OPERATIONS = 10000;

  /**
   * kube-apiserver's JSONPatchMaxCopyBytes (its 3 MiB request body limit): the bytes all copy
   * operations of one patch may add, so that copying a subtree into itself cannot double the object
   * until the heap is exhausted.
   */
  static final long MAX_COPY_BYTES = 3 * 1024 * 1024;

  private JsonPatch() {}

  static ObjectNode apply(ObjectNode current, JsonNode patch) throws PatchException {
    List<ObjectNode> ops = decode(patch);
    if (ops.size() > MAX_OPERATIONS) {
      throw PatchException.tooLarge(
          "The allowed maximum operations in a JSON patch is "
              + MAX_OPERATIONS
              + ", got "
              + ops.size());
    }
    ObjectNode doc = current.deepCopy();
    long[] copied = {0};
    for (ObjectNode op : ops) {
      try {
        applyOne(doc, op, copied);
      } catch (OpException e) {
        throw PatchException.unprocessable(e.getMessage());
      }
    }
    return doc;
  }

  private static List<ObjectNode> decode(JsonNode patch) throws PatchException {
    if (!patch.isArray()) {
      throw PatchException.badRequest(
          "json: cannot unmarshal " + goJsonKind(patch) + " into Go value of type jsonpatch.Patch");
    }
    List<ObjectNode> ops = new ArrayList<>();
    for (JsonNode op : patch) {
      if (!op.isObject()) {
        throw PatchException.badRequest(
            "json: cannot unmarshal "
                + goJsonKind(op)
                + " into Go value of type jsonpatch.Operation");
      }
      ops.add((ObjectNode) op);
    }
    return ops;
  }

  static String goJsonKind(JsonNode n) {
    if (n.isObject()) {
      return "object";
    } else if (n.isArray()) {
      return "array";
    } else if (n.isString()) {
      return "string";
    } else if (n.isNumber()) {
      return "number";
    } else if (n.isBoolean()) {
      return "bool";
    }
    return "null";
  }

  /** An operation that does not apply; the message follows evanphx/json-patch. */
  static final class OpException extends Exception {
    private static final long serialVersionUID = 1L;

    OpException(String message) {
      super(message);
    }
  }

  /** Applies one operation; {@code copied[0]} accumulates the bytes copy operations added. */
  private static void applyOne(ObjectNode doc, ObjectNode op, long[] copied) throws OpException {
    JsonNode kind = op.get("op");
    String name = kind != null && kind.isString() ? kind.stringValue() : "unknown";
    switch (name) {
      case "add" -> add(doc, path(op, "path"), value(op), "add");
      case "remove" -> remove(doc, path(op, "path"));
      case "replace" -> replace(doc, path(op, "path"), value(op));
      case "move" -> move(doc, path(op, "from"), path(op, "path"));
      case "copy" -> copy(doc, path(op, "from"), path(op, "path"), copied);
      case "test" -> test(doc, path(op, "path"), op.get("value"));
      default -> throw new OpException("Unexpected kind: " + name);
    }
  }

  private static String path(ObjectNode op, String field) throws OpException {
    JsonNode p = op.get(field);
    if (p == null || !p.isString()) {
      throw new OpException(
          "path".equals(field)
              ? "operation missing path field: missing value"
              : "operation, missing from field: missing value");
    }
    return p.stringValue();
  }

  private static JsonNode value(ObjectNode op) throws OpException {
    if (!op.has("value")) {
      throw new OpException("operation, missing value field: missing value");
    }
    return op.get("value").deepCopy();
  }

  /** The container of the last token and that token; null when the path is not in the doc. */
  private record Target(JsonNode container, String key) {}

  private static Target find(JsonNode doc, String path) {
    if (!path.startsWith("/")) {
      return null;
    }
    String[] parts = path.substring(1).split("/", -1);
    JsonNode cur = doc;
    for (int i = 0; i < parts.length - 1; i++) {
      cur = child(cur, unescape(parts[i]));
      if (cur == null || !(cur.isObject() || cur.isArray())) {
        return null;
      }
    }
    return new Target(cur, unescape(parts[parts.length - 1]));
  }

  private static JsonNode child(JsonNode container, String key) {
    if (container.isObject()) {
      return container.get(key);
    }
    if (container.isArray()) {
      Integer idx = parseIndex(key);
      if (idx == null || idx < 0 || idx >= container.size()) {
        return null;
      }
      return container.get(idx);
    }
    return null;
  }

  static String unescape(String token) {
    return token.replace("~1", "/").replace("~0", "~");
  }

  private static Integer parseIndex(String key) {
    try {
      return Integer.parseInt(key);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static int arrayIndex(ArrayNode a, String key, boolean forInsert) throws OpException {
    Integer idx = parseIndex(key);
    if (idx == null) {
      throw new OpException("value was not a proper array index: '" + key + "'");
    }
    int limit = forInsert ? a.size() : a.size() - 1;
    if (idx < -a.size() || idx > limit) {
      throw new OpException(
          "Unable to access invalid index: " + idx + ": invalid index referenced");
    }
    return idx < 0 ? idx + a.size() : idx;
  }

  private static void add(ObjectNode doc, String path, JsonNode value, String verb)
      throws OpException {
    Target t = find(doc, path);
    if (t == null) {
      throw new OpException(
          verb + " operation does not apply: doc is missing path: \"" + path + "\": missing value");
    }
    if (t.container instanceof ObjectNode o) {
      o.set(t.key, value);
    } else {
      ArrayNode a = (ArrayNode) t.container;
      if ("-".equals(t.key)) {
        a.add(value);
      } else {
        a.insert(arrayIndex(a, t.key, true), value);
      }
    }
  }

  private static JsonNode remove(ObjectNode doc, String path) throws OpException {
    Target t = find(doc, path);
    if (t == null) {
      throw new OpException(
          "remove operation does not apply: doc is missing path: \"" + path + "\": missing value");
    }
    if (t.container instanceof ObjectNode o) {
      if (!o.has(t.key)) {
        throw new OpException(
            "error in remove for path: '"
                + path
                + "': Unable to remove nonexistent key: "
                + t.key
                + ": missing value");
      }
      return o.remove(t.key);
    }
    ArrayNode a = (ArrayNode) t.container;
    return a.remove(arrayIndex(a, t.key, false));
  }

  private static void replace(ObjectNode doc, String path, JsonNode value) throws OpException {
    Target t = find(doc, path);
    if (t == null) {
      throw new OpException(
          "replace operation does not apply: doc is missing path: " + path + ": missing value");
    }
    if (t.container instanceof ObjectNode o) {
      if (!o.has(t.key)) {
        throw new OpException(
            "replace operation does not apply: doc is missing key: " + path + ": missing value");
      }
      o.set(t.key, value);
    } else {
      ArrayNode a = (ArrayNode) t.container;
      a.set(arrayIndex(a, t.key, false), value);
    }
  }

  private static JsonNode get(ObjectNode doc, String path) {
    Target t = find(doc, path);
    return t == null ? null : child(t.container, t.key);
  }

  private static void move(ObjectNode doc, String from, String path) throws OpException {
    if (path.startsWith(from + "/")) {
      throw new OpException("move operation does not apply: from is a prefix of path: " + from);
    }
    if (get(doc, from) == null) {
      throw new OpException(
          "move operation does not apply: doc is missing from path: " + from + ": missing value");
    }
    JsonNode v = remove(doc, from);
    add(doc, path, v, "move");
  }

  private static void copy(ObjectNode doc, String from, String path, long[] copied)
      throws OpException {
    JsonNode v = get(doc, from);
    if (v == null) {
      throw new OpException(
          "copy operation does not apply: doc is missing from path: " + from + ": missing value");
    }
    copied[0] += Json.serializedSize(v);
    if (copied[0] > MAX_COPY_BYTES) {
      throw new OpException(
          "Unable to complete the copy, the accumulated size increase of copy is "
              + copied[0]
              + ", exceeding the limit "
              + MAX_COPY_BYTES);
    }
    add(doc, path, v.deepCopy(), "copy");
  }

  private static void test(ObjectNode doc, String path, JsonNode expected) throws OpException {
    JsonNode actual = get(doc, path);
    boolean expectNull = expected == null || expected.isNull();
    if (actual == null) {
      if (expectNull) {
        return;
      }
      throw new OpException("testing value " + path + " failed: test failed");
    }
    if (expectNull ? !actual.isNull() : !Json.sameNumbersLoose(actual, expected)) {
      throw new OpException("testing value " + path + " failed: test failed");
    }
  }
}
