package io.jdra.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Trees are the same key only when a decoder cannot tell them apart. */
class TreeKeyTest {
  @Test
  void equalTreesAreOneKey() {
    JsonNode a = tree("{\"a\":[1,\"x\",{\"b\":null}],\"c\":true}");
    assertThat(TreeKey.lookup(a)).isEqualTo(TreeKey.lookup(tree(a.toString())));
    assertThat(TreeKey.lookup(a).hashCode()).isEqualTo(TreeKey.lookup(a.deepCopy()).hashCode());
  }

  @Test
  void keyOrderNumberTypesAndValuesTell() {
    JsonNode a = tree("{\"a\":1,\"b\":2}");
    assertThat(TreeKey.lookup(a)).isNotEqualTo(TreeKey.lookup(tree("{\"b\":2,\"a\":1}")));
    ObjectNode longs = Json.object().put("a", 1L).put("b", 2L);
    assertThat(TreeKey.lookup(a)).isNotEqualTo(TreeKey.lookup(longs));
    assertThat(TreeKey.lookup(a)).isNotEqualTo(TreeKey.lookup(tree("{\"a\":1,\"b\":3}")));
    assertThat(TreeKey.lookup(tree("[1,2]"))).isNotEqualTo(TreeKey.lookup(tree("[1,2,3]")));
  }

  @Test
  void aKeptKeyDoesNotFollowLaterChanges() {
    ObjectNode a = (ObjectNode) tree("{\"a\":1}");
    TreeKey kept = TreeKey.lookup(a).kept();
    a.put("a", 2);
    assertThat(kept).isEqualTo(TreeKey.lookup(tree("{\"a\":1}")));
  }

  @Test
  void specsAreKeptUpToTheBoundThenDropped() {
    DecodedSpecs<String> specs = new DecodedSpecs<>();
    for (int i = 0; i < DecodedSpecs.MAX_ENTRIES; i++) {
      specs.put(tree("{\"i\":" + i + "}"), "v" + i);
    }
    assertThat(specs.find(tree("{\"i\":3}"))).isEqualTo("v3");
    assertThat(specs.get(tree("{\"i\":-1}"), t -> "new")).isEqualTo("new");
    assertThat(specs.size()).isEqualTo(1);
    assertThat(specs.get(tree("{\"i\":-1}"), t -> "not called")).isEqualTo("new");
  }

  private static JsonNode tree(String json) {
    return Json.MAPPER.readTree(json);
  }
}
