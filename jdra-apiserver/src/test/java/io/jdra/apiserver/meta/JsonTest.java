package io.jdra.apiserver.meta;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.ExampleManifests;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link Json#sameValue}, which stops at shared subtrees, answers as Jackson's equals with the same
 * comparator: on the upstream example objects and on every one-change variant of them, built as a
 * write builds its tree (the unchanged subtrees shared with the original) and as a deep copy.
 */
class JsonTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Replacements of a value: other types, an equal number of another class, absent. */
  private static final List<Function<JsonNode, JsonNode>> CHANGES =
      List.of(
          v -> NODES.stringNode("x"),
          v -> NODES.numberNode(1),
          v -> v.isIntegralNumber() ? NODES.numberNode(v.longValue()) : NODES.numberNode(2L),
          v ->
              v.isIntegralNumber()
                  ? NODES.numberNode(new BigDecimal(v.bigIntegerValue()).setScale(1))
                  : NODES.numberNode(new BigDecimal("1.0")),
          v -> NODES.booleanNode(true),
          v -> NODES.nullNode(),
          v -> NODES.objectNode(),
          v -> NODES.arrayNode(),
          v -> null);

  /** A node the server wrote once writes as the plain object a client sends back. */
  @Test
  void writtenOnceObjectsAreWrittenAlikeWithPlainOnes() {
    ObjectNode plain = NODES.objectNode();
    plain.put("a", 1).putObject("f:spec").putObject("f:x");
    WrittenOnce kept = new WrittenOnce() {};
    kept.setAll(plain.deepCopy());
    assertThat(Json.writtenAlike(kept, plain)).isTrue();
    assertThat(Json.writtenAlike(plain, kept)).isTrue();
    ArrayNode entries = NODES.arrayNode();
    entries.addObject().put("manager", "m").set("fieldsV1", kept);
    ArrayNode sent = NODES.arrayNode();
    sent.addObject().put("manager", "m").set("fieldsV1", plain);
    assertThat(Json.writtenAlike(sent, entries)).isTrue();
    // still apart: a value of another class, another key order
    ObjectNode longer = plain.deepCopy();
    longer.put("a", 1L);
    assertThat(Json.writtenAlike(kept, longer)).isFalse();
    ObjectNode reordered = NODES.objectNode();
    reordered.set("f:spec", plain.get("f:spec").deepCopy());
    reordered.put("a", 1);
    assertThat(Json.writtenAlike(kept, reordered)).isFalse();
    assertThat(Json.writtenAlike(kept, NODES.arrayNode())).isFalse();
  }

  @Test
  void answersAsJacksonOnEveryOneChangeVariant() {
    int compared = 0;
    for (ObjectNode o : ExampleManifests.all()) {
      compared += check(o, o);
      compared += check(o, o.deepCopy());
      for (JsonNode variant : variants(o)) {
        compared += check(o, variant);
        compared += check(o, variant.deepCopy());
      }
    }
    assertThat(compared).isGreaterThan(10_000);
    // numbers by value, in objects and arrays, shared or not
    ObjectNode a = NODES.objectNode();
    a.put("n", 1).putArray("l").add(2);
    ObjectNode b = NODES.objectNode();
    b.put("n", 1L).putArray("l").add(new BigDecimal("2.0"));
    check(a, b);
    assertThat(Json.sameValue(a, b)).isTrue();
    assertThat(Json.sameValue(null, null)).isTrue();
    assertThat(Json.sameValue(a, null)).isFalse();
  }

  private static int check(JsonNode a, JsonNode b) {
    assertThat(Json.sameValue(a, b)).as(a + " / " + b).isEqualTo(Json.sameValueByJackson(a, b));
    assertThat(Json.sameValue(b, a)).as(b + " / " + a).isEqualTo(Json.sameValueByJackson(b, a));
    return 1;
  }

  /** Every one-change variant of {@code root}, sharing what the change does not touch. */
  private static List<JsonNode> variants(JsonNode root) {
    List<JsonNode> out = new ArrayList<>();
    collect(root, root, new ArrayList<>(), out);
    return out;
  }

  private static void collect(JsonNode root, JsonNode at, List<Object> path, List<JsonNode> out) {
    if (!path.isEmpty()) {
      for (Function<JsonNode, JsonNode> change : CHANGES) {
        out.add(replaced(root, path, 0, change.apply(at)));
      }
    }
    if (at instanceof ObjectNode o) {
      List<Object> extra = new ArrayList<>(path);
      extra.add("added-key");
      out.add(replaced(root, extra, 0, NODES.stringNode("new")));
      for (String k : o.propertyNames()) {
        path.add(k);
        collect(root, o.get(k), path, out);
        path.remove(path.size() - 1);
      }
    } else if (at instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        path.add(i);
        collect(root, a.get(i), path, out);
        path.remove(path.size() - 1);
      }
    }
  }

  /**
   * {@code node} with the value at {@code path} (from {@code depth}) replaced (null: removed), new
   * containers along the path only.
   */
  private static JsonNode replaced(JsonNode node, List<Object> path, int depth, JsonNode value) {
    if (depth == path.size()) {
      return value;
    }
    Object step = path.get(depth);
    if (node instanceof ObjectNode o) {
      ObjectNode copy = NODES.objectNode();
      copy.setAll(o);
      String k = (String) step;
      JsonNode child = replaced(o.get(k), path, depth + 1, value);
      if (child == null) {
        copy.remove(k);
      } else {
        copy.set(k, child);
      }
      return copy;
    }
    ArrayNode a = (ArrayNode) node;
    ArrayNode copy = NODES.arrayNode();
    int index = (Integer) step;
    for (int i = 0; i < a.size(); i++) {
      if (i != index) {
        copy.add(a.get(i));
      } else {
        JsonNode child = replaced(a.get(i), path, depth + 1, value);
        if (child != null) {
          copy.add(child);
        }
      }
    }
    return copy;
  }
}
