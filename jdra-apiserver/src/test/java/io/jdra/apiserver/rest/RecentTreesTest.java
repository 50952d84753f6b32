package io.jdra.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.ExampleManifests;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.storage.StoredObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A remembered tree is handed out exactly as parsing the stored bytes gives it (node classes, key
 * order, values), or the bytes are parsed; it is a tree of its own each time, or to read only the
 * remembered tree itself when that one parses back alike; the oldest are dropped.
 */
class RecentTreesTest {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  @Test
  void copiesAreWhatParsingTheStoredBytesGives() throws Exception {
    List<ObjectNode> trees = new ArrayList<>(ExampleManifests.all());
    trees.add(
        parse(
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
                + "\"managedFields\":[{\"manager\":\"m\",\"fieldsV1\":{\"f:spec\":{\".\":{}}}}]},"
                + "\"spec\":{\"priority\":0,\"x\":[1,-2,2147483648,9223372036854775808,true,null,"
                + "\"\\u00e9\\n\"],\"f\":1.5,\"e\":1e400,\"z\":1.0}}"));
    // numbers built by code rather than parsed: the parser would give other node classes
    ObjectNode built = parse("{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"}}");
    built.set("long", F.numberNode(5L));
    built.set("big", F.numberNode(BigInteger.TEN));
    built.set("short", F.numberNode((short) 3));
    built.set("double", F.numberNode(2.0));
    built.set("decimal", F.numberNode(new BigDecimal("1.0")));
    built.set("bigLong", F.numberNode(1L << 40));
    trees.add(built);
    RecentTrees recent = new RecentTrees(4);
    long rv = 100;
    for (ObjectNode t : trees) {
      StoredObject stored = store(t.deepCopy(), recent, rv++);
      ObjectNode parsed = Json.parseObject(stored.json());
      ObjectNode first = recent.tree(stored);
      identical(first, parsed, "");
      first.put("changed", true); // a tree of its own: the next one is unchanged
      identical(recent.tree(stored), parsed, "");
      assertThat(Json.bytes(recent.tree(stored))).isEqualTo(stored.json());
    }
  }

  @Test
  void treesThatParseBackAlikeAreSharedWithReadersAndCopiedForWriters() {
    ObjectNode t =
        parse("{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"},\"data\":{\"n\":1}}");
    RecentTrees recent = new RecentTrees(4);
    StoredObject stored = store(t, recent, 7);
    ObjectNode read = recent.read(stored);
    assertThat(read).isSameAs(t);
    identical(read, Json.parseObject(stored.json()), "");
    assertThat(read.at("/metadata/resourceVersion").asString()).isEqualTo("7");
    assertThat(recent.read(stored)).isSameAs(read);
    ObjectNode own = recent.tree(stored);
    assertThat(own).isNotSameAs(read);
    identical(own, Json.parseObject(stored.json()), "");
    own.put("changed", true);
    assertThat(recent.intact(stored, read)).isTrue();
    assertThat(recent.intact(stored, own)).isTrue(); // a tree of one's own is not checked
    read.put("changed", true);
    assertThat(recent.intact(stored, read)).isFalse();
  }

  @Test
  void treesWithIntegersOfAnotherClassAreReadAsCopies() {
    RecentTrees recent = new RecentTrees(4);
    for (JsonNode odd :
        List.of(F.numberNode(5L), F.numberNode(BigInteger.TEN), F.numberNode(1.5))) {
      ObjectNode t = parse("{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}");
      t.putObject("data").set("n", odd);
      StoredObject stored = store(t, recent, 9);
      ObjectNode read = recent.read(stored);
      assertThat(read).isNotSameAs(t);
      identical(read, Json.parseObject(stored.json()), "");
    }
  }

  @Test
  void integersBecomeWhatTheParserReadsAndFractionsAreParsed() {
    assertThat(RecentTrees.copyIfParsedAlike(parse("{\"a\":[1,\"x\",true,null]}"))).isNotNull();
    assertThat(RecentTrees.copyIfParsedAlike(F.numberNode(5L))).isEqualTo(F.numberNode(5));
    assertThat(RecentTrees.copyIfParsedAlike(F.numberNode((short) 5))).isEqualTo(F.numberNode(5));
    assertThat(RecentTrees.copyIfParsedAlike(F.numberNode(1L << 40)))
        .isEqualTo(F.numberNode(1L << 40));
    assertThat(RecentTrees.copyIfParsedAlike(F.numberNode(BigInteger.TEN)))
        .isEqualTo(F.numberNode(10));
    assertThat(RecentTrees.copyIfParsedAlike(F.numberNode(BigInteger.ONE.shiftLeft(63))))
        .isEqualTo(F.numberNode(BigInteger.ONE.shiftLeft(63)));
    assertThat(RecentTrees.copyIfParsedAlike(parse("{\"a\":{\"b\":[1.5]}}"))).isNull();
    assertThat(RecentTrees.copyIfParsedAlike(F.numberNode(2.0))).isNull();
  }

  @Test
  void theOldestVersionsAreDropped() {
    RecentTrees recent = new RecentTrees(2);
    List<StoredObject> stored = new ArrayList<>();
    List<ObjectNode> trees = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ObjectNode t = parse("{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c" + i + "\"}}");
      trees.add(t);
      stored.add(store(t, recent, i + 1));
    }
    // the first is parsed again (equal, but not from the remembered tree, which it no longer has)
    identical(recent.tree(stored.get(0)), Json.parseObject(stored.get(0).json()), "");
    for (int i = 1; i < 3; i++) {
      ObjectNode remembered = trees.get(i);
      Json.child(remembered, "metadata").put("name", "changed-behind-its-back");
      assertThat(recent.tree(stored.get(i)).at("/metadata/name").asString())
          .isEqualTo("changed-behind-its-back");
    }
    Json.child(trees.get(0), "metadata").put("name", "changed-behind-its-back");
    assertThat(recent.tree(stored.get(0)).at("/metadata/name").asString()).isEqualTo("c0");
  }

  private static StoredObject store(ObjectNode tree, RecentTrees recent, long rv) {
    return PreparedObject.of(tree, "ns", "n", "uid", Map.of(), Map.of(), recent).apply(rv);
  }

  /** Same node classes, same keys in the same order, equal values. */
  private static void identical(JsonNode a, JsonNode b, String at) {
    assertThat(a.getClass()).as(at).isEqualTo(b.getClass());
    assertThat(a).as(at).isEqualTo(b);
    if (a.isObject()) {
      Iterator<String> ka = a.propertyNames().iterator();
      Iterator<String> kb = b.propertyNames().iterator();
      while (ka.hasNext()) {
        String k = ka.next();
        assertThat(kb.next()).as(at).isEqualTo(k);
        identical(a.get(k), b.get(k), at + "/" + k);
      }
      assertThat(kb.hasNext()).as(at).isFalse();
    } else if (a.isArray()) {
      for (int i = 0; i < a.size(); i++) {
        identical(a.get(i), b.get(i), at + "/" + i);
      }
    }
  }

  private static ObjectNode parse(String json) {
    return Json.parseObject(json.getBytes(StandardCharsets.UTF_8));
  }
}
