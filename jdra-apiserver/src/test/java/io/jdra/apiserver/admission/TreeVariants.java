package io.jdra.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.meta.TreeCopies;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Variants of a JSON tree with one change each, for comparing hand-written readers with Jackson.
 */
final class TreeVariants {
  private TreeVariants() {}

  /** Copies of root, each with one change at one node under {@code at}. */
  static void variants(JsonNode root, JsonNode at, List<JsonNode> out) {
    if (at instanceof ObjectNode o) {
      for (Map.Entry<String, JsonNode> e : o.properties()) {
        for (JsonNode r : replacements(e.getValue())) {
          out.add(TreeCopies.changed(root, at, c -> ((ObjectNode) c).set(e.getKey(), r)));
        }
        out.add(TreeCopies.changed(root, at, c -> ((ObjectNode) c).remove(e.getKey())));
        variants(root, e.getValue(), out);
      }
      out.add(TreeCopies.changed(root, at, c -> ((ObjectNode) c).put("unknown", "x")));
    } else if (at instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        int index = i;
        for (JsonNode r : replacements(a.get(i))) {
          out.add(TreeCopies.changed(root, at, c -> ((ArrayNode) c).set(index, r)));
        }
        variants(root, a.get(i), out);
      }
      out.add(TreeCopies.changed(root, at, c -> ((ArrayNode) c).removeAll()));
    }
  }

  private static List<JsonNode> replacements(JsonNode v) {
    return List.of(
        tools.jackson.databind.node.JsonNodeFactory.instance.nullNode(),
        tools.jackson.databind.node.JsonNodeFactory.instance.numberNode(7),
        tools.jackson.databind.node.JsonNodeFactory.instance.booleanNode(true),
        tools.jackson.databind.node.JsonNodeFactory.instance.stringNode("s"),
        tools.jackson.databind.node.JsonNodeFactory.instance.stringNode(""),
        Json.object(),
        tools.jackson.databind.node.JsonNodeFactory.instance.arrayNode(),
        tools.jackson.databind.node.JsonNodeFactory.instance.arrayNode().add("s"));
  }

  /**
   * Reads every one of {@code variants} with {@code reader}, checking each one read by hand against
   * Jackson ({@link #assertReadAsJackson}); returns how many were read by hand.
   */
  static <T> int readAsJacksonOrLeft(
      List<JsonNode> variants, Function<JsonNode, T> reader, Class<T> type) {
    int read = 0;
    for (JsonNode v : variants) {
      T fast = reader.apply(v);
      if (fast != null) {
        read++;
        assertReadAsJackson(fast, v, type);
      }
    }
    return read;
  }

  /** {@code fast} is the object Jackson reads from {@code tree}, and writes the same JSON. */
  static <T> void assertReadAsJackson(T fast, JsonNode tree, Class<T> type) {
    T jackson;
    try {
      jackson = Json.treeToValue(tree, type);
    } catch (JacksonException e) {
      throw new AssertionError("read by hand where Jackson fails: " + tree, e);
    }
    assertThat(fast).as(tree.toString()).isEqualTo(jackson);
    assertThat(Json.MAPPER.valueToTree(fast).toString())
        .as(tree.toString())
        .isEqualTo(Json.MAPPER.valueToTree(jackson).toString());
  }
}
