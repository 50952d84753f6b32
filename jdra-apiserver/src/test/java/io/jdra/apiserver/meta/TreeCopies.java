package io.jdra.apiserver.meta;

import java.util.Map;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Copies of a JSON tree with one change, for tests that compare a shortcut with the slow path. */
public final class TreeCopies {
  private TreeCopies() {}

  /** A deep copy of {@code root} with {@code change} applied to the copy of its node {@code at}. */
  public static JsonNode changed(JsonNode root, JsonNode at, Consumer<JsonNode> change) {
    JsonNode copy = root.deepCopy();
    change.accept(find(root, copy, at));
    return copy;
  }

  /** The node of {@code copy} at the place {@code target} has in {@code original}. */
  private static JsonNode find(JsonNode original, JsonNode copy, JsonNode target) {
    if (original == target) {
      return copy;
    }
    if (original instanceof ObjectNode o) {
      for (Map.Entry<String, JsonNode> e : o.properties()) {
        JsonNode f = find(e.getValue(), copy.get(e.getKey()), target);
        if (f != null) {
          return f;
        }
      }
    } else if (original instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        JsonNode f = find(a.get(i), copy.get(i), target);
        if (f != null) {
          return f;
        }
      }
    }
    return null;
  }
}
