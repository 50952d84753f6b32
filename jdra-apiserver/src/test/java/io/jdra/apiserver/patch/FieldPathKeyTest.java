package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** List-map keys spelled and read without the JSON writer and parser, as those spell and read. */
class FieldPathKeyTest {
  private static final String[] KEYS = {
    "{\"name\":\"pause\"}",
    "{\"uid\":\"0b6f8e4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b\"}",
    "{\"containerPort\":80,\"protocol\":\"TCP\"}",
    "{\"a\":\"x/y\"}",
    "{\"a\":\"quote \\\" inside\"}",
    "{\"a\":\"back\\\\slash\"}",
    "{\"a\":\"\u00e9t\u00e9\"}",
    "{\"a\":\"tab\\tline\\n\"}",
    "{\"a\":true,\"b\":null}",
    "{\"b\":\"2\",\"a\":\"1\"}",
    "{\"a\":\"1\",\"a\":\"2\"}",
    "{}",
    "{ \"a\" : \"b\" }",
    "{\"a\":\"<&>\"}",
    "{\"a\":{\"b\":\"c\"}}",
  };

  @Test
  void encodingIsTheWritersForEveryKey() {
    for (String json : KEYS) {
      FieldPath.Key key = parsed(json);
      ObjectNode o = Json.object();
      key.fields().forEach(o::set);
      assertThat(key.encode()).as(json).isEqualTo("k:" + Json.write(o));
    }
  }

  @Test
  void setItemEncodingIsTheWritersForEveryValue() {
    java.util.Random random = new java.util.Random(11);
    String alphabet = "az09./-_:\"\\<&>\t\n\u00e9\u2028 ~\u007f";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int n = random.nextInt(12); n > 0; n--) {
        sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      JsonNode v = Json.NODES.stringNode(sb.toString());
      assertThat(new FieldPath.Value(v).encode()).as(sb.toString()).isEqualTo("v:" + Json.write(v));
    }
    for (JsonNode v :
        new JsonNode[] {
          Json.NODES.numberNode(3),
          Json.NODES.booleanNode(true),
          Json.NODES.nullNode(),
          Json.NODES.stringNode("resource.kubernetes.io/delete-protection")
        }) {
      assertThat(new FieldPath.Value(v).encode()).as(v.toString()).isEqualTo("v:" + Json.write(v));
    }
  }

  @Test
  void readingIsTheParsersWhereItReadsAtAll() {
    int read = 0;
    for (String json : KEYS) {
      TreeMap<String, JsonNode> plain = FieldPath.plainKey(json);
      if (plain != null) {
        read++;
        assertThat(plain).as(json).isEqualTo(parsed(json).fields());
      }
      assertThat(FieldPath.decode("k:" + json)).as(json).isEqualTo(parsed(json));
    }
    assertThat(read).isGreaterThanOrEqualTo(6);
    assertThat(FieldPath.plainKey("{\"a\":\"b\"")).isNull();
    assertThat(FieldPath.plainKey("{\"a\":\"b\",}")).isNull();
    assertThat(FieldPath.plainKey("{\"a\"\"b\"}")).isNull();
    assertThat(FieldPath.plainKey("[\"a\"]")).isNull();
  }

  /** The key as the JSON parser reads it. */
  private static FieldPath.Key parsed(String json) {
    TreeMap<String, JsonNode> m = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : Json.MAPPER.readTree(json).properties()) {
      m.put(e.getKey(), e.getValue());
    }
    return new FieldPath.Key(m);
  }
}
