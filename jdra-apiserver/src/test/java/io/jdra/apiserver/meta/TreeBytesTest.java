package io.jdra.apiserver.meta;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.ExampleManifests;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link Json#bytes} (with {@link TreeBytes}) writes exactly what the mapper's generator writes;
 * {@link Json#written} says a tree parses back to itself only when it does, node classes included.
 */
class TreeBytesTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static void same(JsonNode tree) {
    assertThat(new String(Json.bytes(tree), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(
            new String(
                Json.MAPPER.writeValueAsBytes(tree), java.nio.charset.StandardCharsets.UTF_8));
    Json.Written w = Json.written(tree);
    assertThat(w.bytes()).isEqualTo(Json.bytes(tree));
    if (w.asParsed()) {
      identical(Json.MAPPER.readTree(w.bytes()), tree, "");
    }
  }

  /**
   * Same node classes, same keys in the same order, equal values. A node {@link WrittenOnce} counts
   * as the parser's object node: it is one, whose bytes the writer keeps.
   */
  static void identical(JsonNode a, JsonNode b, String at) {
    assertThat(nodeClass(a)).as(at).isEqualTo(nodeClass(b));
    assertThat(a).as(at).isEqualTo(b);
    if (a.isObject()) {
      assertThat(a.propertyNames()).as(at).containsExactlyElementsOf(b.propertyNames());
      for (String k : a.propertyNames()) {
        identical(a.get(k), b.get(k), at + "/" + k);
      }
    } else if (a.isArray()) {
      for (int i = 0; i < a.size(); i++) {
        identical(a.get(i), b.get(i), at + "/" + i);
      }
    }
  }

  private static Class<?> nodeClass(JsonNode n) {
    return n instanceof WrittenOnce ? ObjectNode.class : n.getClass();
  }

  @Test
  void parsedTreesAreAsParsedAndIntegersOfAnotherClassAreNot() {
    for (ObjectNode o : ExampleManifests.all()) {
      JsonNode stored = Json.MAPPER.readTree(Json.MAPPER.writeValueAsBytes(o));
      if (TreeBytes.write(stored) != null) {
        assertThat(Json.written(stored).asParsed()).as(stored.toString()).isTrue();
      }
    }
    assertThat(Json.written(NODES.numberNode(5L)).asParsed()).isFalse();
    assertThat(Json.written(NODES.numberNode(1L << 40)).asParsed()).isTrue();
    assertThat(Json.written(NODES.numberNode(Integer.MIN_VALUE - 1L)).asParsed()).isTrue();
    assertThat(Json.written(NODES.numberNode(BigInteger.TEN)).asParsed()).isFalse();
    assertThat(Json.written(NODES.numberNode(BigInteger.ONE.shiftLeft(63))).asParsed()).isTrue();
    assertThat(Json.written(NODES.numberNode(BigInteger.ONE.shiftLeft(63).negate())).asParsed())
        .isFalse();
    assertThat(Json.written(NODES.numberNode((short) 3)).asParsed()).isFalse();
    assertThat(Json.written(NODES.numberNode(new BigDecimal("1.5"))).asParsed()).isFalse();
    ObjectNode o = NODES.objectNode();
    o.put("a", 1).put("b", "x").putArray("c").add(NODES.numberNode(7L));
    assertThat(Json.written(o).asParsed()).isFalse();
  }

  @Test
  void upstreamExamplesAsGivenAndAsStored() {
    List<ObjectNode> all = ExampleManifests.all();
    int fast = 0;
    for (ObjectNode o : all) {
      same(o);
      JsonNode stored = Json.MAPPER.readTree(Json.MAPPER.writeValueAsBytes(o));
      same(stored);
      if (TreeBytes.write(stored) != null) {
        fast++;
      }
    }
    assertThat(fast)
        .as("objects written without Jackson's generator")
        .isGreaterThan(all.size() / 2);
  }

  @Test
  void storedPodAndClaimWithManagedFields() {
    JsonNode claim =
        Json.MAPPER.readTree(
            """
            {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c",
             "namespace":"default","uid":"6f1c","resourceVersion":"12","generation":1,
             "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"a\\":\\"b\\\\\\\\c\\"}\\n"},
             "managedFields":[{"manager":"kube-scheduler","operation":"Update",
              "apiVersion":"resource.k8s.io/v1","time":"2026-11-26T11:00:00Z","fieldsType":"FieldsV1",
              "fieldsV1":{"f:metadata":{"f:finalizers":{".":{},"v:\\"resource.kubernetes.io/delete-protection\\"":{}}},
               "f:status":{"f:reservedFor":{"k:{\\"uid\\":\\"u1\\"}":{".":{},"f:name":{}}}}}}]},
             "spec":{"devices":{"requests":[{"name":"req-0","exactly":{"deviceClassName":"c",
              "allocationMode":"ExactCount","count":1,"adminAccess":false}}],
              "config":[{"opaque":{"driver":"d","parameters":{"f":1.5,"e":1e400,"big":123456789012345678901234567890,
               "neg":-9223372036854775808,"t":true,"n":null,"u":"é ☃ 𝄞","ctl":"a\\tb\\u0001","empty":{},"list":[]}}}]}},
             "status":{}}
            """);
    same(claim);
    same(claim.get("metadata"));
    same(claim.get("spec").get("devices").get("requests"));
  }

  /** A node written once, with the contents of {@code from}. */
  private static WrittenOnce writtenOnce(JsonNode from) {
    WrittenOnce w = new WrittenOnce() {};
    w.setAll((ObjectNode) from.deepCopy());
    return w;
  }

  @Test
  void nodesWrittenOnceAreCopiedAsTheyWereWritten() {
    JsonNode fields =
        Json.MAPPER.readTree(
            "{\"f:metadata\":{\"f:finalizers\":{\".\":{},\"v:\\\"x.io/f\\\"\":{}}},"
                + "\"f:status\":{\"f:reservedFor\":{}}}");
    WrittenOnce entry = writtenOnce(fields);
    ObjectNode claim = Json.object();
    claim.put("kind", "ResourceClaim");
    claim.putObject("metadata").putArray("managedFields").addObject().set("fieldsV1", entry);
    claim.put("count", 3);
    for (int i = 0; i < 3; i++) {
      same(claim); // written, then copied
      assertThat(entry.bytes()).isNotNull();
      assertThat(Json.written(claim).asParsed()).isTrue();
    }
    // in a tree left to Jackson, and holding what Jackson writes: the same bytes, nothing kept
    WrittenOnce nonAscii = writtenOnce(Json.MAPPER.readTree("{\"f:é\":{}}"));
    ObjectNode other = Json.object();
    other.set("a", entry);
    other.set("b", nonAscii);
    other.put("c", 1.5);
    same(other);
    assertThat(nonAscii.bytes()).isNull();
    // what is around it still decides whether the tree parses back alike
    ObjectNode withLong = Json.object();
    withLong.set("a", entry);
    withLong.put("n", 1L);
    same(withLong);
    assertThat(Json.written(withLong).asParsed()).isFalse();
  }

  @Test
  void scalarsOfEveryKind() {
    List<JsonNode> values =
        List.of(
            NODES.numberNode(0),
            NODES.numberNode(Integer.MIN_VALUE),
            NODES.numberNode(Long.MAX_VALUE),
            NODES.numberNode(BigInteger.TEN.pow(30).negate()),
            NODES.numberNode((short) 7),
            NODES.numberNode(1.5f),
            NODES.numberNode(-0.0),
            NODES.numberNode(new BigDecimal("1E+400")),
            NODES.numberNode(new BigDecimal("10.000")),
            NODES.booleanNode(false),
            NODES.nullNode(),
            NODES.stringNode(""),
            NODES.binaryNode(new byte[] {1, 2, 3}),
            NODES.pojoNode(List.of("x")),
            NODES.objectNode(),
            NODES.arrayNode());
    for (JsonNode v : values) {
      same(v);
      ObjectNode o = NODES.objectNode();
      o.set("k", v);
      o.put("after", 1);
      same(o);
      ArrayNode a = NODES.arrayNode();
      a.add(v);
      a.add(v);
      same(a);
    }
  }

  @Test
  void randomStringsAsKeysAndValues() {
    Random random = new Random(42);
    char[] alphabet = {
      'a', 'Z', '0', ' ', '"', '\\', '/', '\'', '<', '&', '\u007f', '\n', '\t', '\u0000', '\u001f',
      '\u0080', '\u00e9', '\u2028', '\ud83d', '\ude00', '\uffff', '{', ':'
    };
    List<String> strings = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      int n = random.nextInt(12);
      StringBuilder s = new StringBuilder();
      for (int j = 0; j < n; j++) {
        // mostly printable ASCII, as real objects are, with the odd special character
        s.append(
            random.nextInt(4) == 0
                ? alphabet[random.nextInt(alphabet.length)]
                : (char) (0x20 + random.nextInt(0x5f)));
      }
      strings.add(s.toString());
    }
    for (String s : strings) {
      ObjectNode o = NODES.objectNode();
      o.put(s, s);
      same(o);
    }
    // keys written before, as equal strings and as the same ones (the writer remembers keys)
    for (int i = 0; i < strings.size(); i++) {
      ObjectNode o = NODES.objectNode();
      o.put(new String(strings.get(i)), i);
      o.put(strings.get((i * 7) % strings.size()) + "x", i);
      o.put(strings.get(i) + "x", i);
      same(o);
    }
    // long strings cross the buffer's growth
    StringBuilder big = new StringBuilder();
    for (int i = 0; i < 5000; i++) {
      big.append(i % 7 == 0 ? "\\\"" : "ab");
    }
    ObjectNode o = NODES.objectNode();
    o.put("big", big.toString());
    o.put(big.toString(), big.toString());
    same(o);
  }
}
