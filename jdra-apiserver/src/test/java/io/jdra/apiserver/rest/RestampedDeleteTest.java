package io.jdra.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.ExampleManifests;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.storage.StoredObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * A delete's last state restamped from the stored bytes ({@link PreparedObject#restamped}) is what
 * serializing the stored tree at the delete's version gives, byte for byte, and it is offered only
 * for the shared tree those bytes were written from.
 */
class RestampedDeleteTest {
  @Test
  void restampedBytesAreTheSerializedLastState() {
    List<ObjectNode> trees = new ArrayList<>(ExampleManifests.all());
    // the stored version's digits elsewhere in the object, before and after the metadata's
    trees.add(
        parse(
            "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"involvedObject\":{\"kind\":\"Pod\","
                + "\"resourceVersion\":\"%d\"},\"metadata\":{\"name\":\"e\",\"labels\":{\"a\":"
                + "\"%d\"},\"resourceVersion\":\"1\"},\"data\":{\"resourceVersion\":\"%d\"}}"));
    trees.add(
        parse(
            "{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"},\"data\":{\"k\":\"\u00e9\"}}"));
    RecentTrees recent = new RecentTrees(8);
    int restamped = 0;
    long rv = 73; // the digits the event holds elsewhere
    for (ObjectNode t : trees) {
      for (long next : List.of(rv + 1, rv + 10, rv + 1000, 123456789012L)) {
        StoredObject stored = store(t.deepCopy(), recent, rv);
        ObjectNode read = recent.read(stored);
        int at = recent.versionAt(stored, read);
        assertThat(recent.versionAt(stored, recent.tree(stored))).isEqualTo(-1); // a copy
        if (at < 0) {
          continue;
        }
        restamped++;
        StoredObject fast = PreparedObject.restamped(stored, at).apply(next);
        StoredObject slow =
            PreparedObject.of(
                    Strategies.withOwnMetadata(read), "ns", "n", "uid", Map.of(), Map.of(), null)
                .apply(next);
        assertThat(new String(fast.json(), StandardCharsets.UTF_8))
            .isEqualTo(new String(slow.json(), StandardCharsets.UTF_8));
        assertThat(fast.resourceVersion()).isEqualTo(next);
        assertThat(
                ObjectService.sameStored(PreparedObject.restamped(stored, at), x -> slow(read, x)))
            .isTrue();
        // the tree read stays as stored
        assertThat(Json.bytes(read)).isEqualTo(stored.json());
      }
    }
    assertThat(restamped).isGreaterThanOrEqualTo(8); // the last two at least: all but fractions
  }

  @Test
  void aDifferentBuildIsNotTheSameStoredObject() {
    RecentTrees recent = new RecentTrees(2);
    StoredObject stored =
        store(parse("{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}"), recent, 5);
    ObjectNode read = recent.read(stored);
    int at = recent.versionAt(stored, read);
    assertThat(at).isPositive();
    ObjectNode changed = Strategies.withOwnMetadata(read);
    changed.put("data", "x");
    assertThat(
            ObjectService.sameStored(
                PreparedObject.restamped(stored, at),
                x ->
                    PreparedObject.of(
                            changed.deepCopy(), "ns", "n", "uid", Map.of(), Map.of(), null)
                        .apply(x)))
        .isFalse();
    assertThat(
            ObjectService.sameStored(
                PreparedObject.restamped(stored, at),
                x ->
                    PreparedObject.of(
                            Strategies.withOwnMetadata(read),
                            "ns",
                            "n",
                            "uid",
                            Map.of("a", "b"),
                            Map.of(),
                            null)
                        .apply(x)))
        .isFalse();
  }

  private static StoredObject slow(ObjectNode read, long rv) {
    return PreparedObject.of(
            Strategies.withOwnMetadata(read), "ns", "n", "uid", Map.of(), Map.of(), null)
        .apply(rv);
  }

  private static StoredObject store(ObjectNode tree, RecentTrees recent, long rv) {
    return PreparedObject.of(tree, "ns", "n", "uid", Map.of(), Map.of(), recent).apply(rv);
  }

  private static ObjectNode parse(String json) {
    String filled = json.contains("%d") ? json.formatted(73L, 73L, 73L) : json;
    return Json.parseObject(filled.getBytes(StandardCharsets.UTF_8));
  }
}
