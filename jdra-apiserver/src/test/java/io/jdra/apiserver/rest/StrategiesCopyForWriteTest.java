package io.jdra.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceRegistry;
import io.jdra.apiserver.registry.ResourceType;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link Strategies#copyForWrite}: what a write starting from a stored object copies and what it
 * shares with it, by kind.
 */
class StrategiesCopyForWriteTest {
  private static final ResourceRegistry REGISTRY = ResourceRegistry.builtIn();
  private static final String OBJECT =
      """
      {"apiVersion":"v1","kind":"K","metadata":{"name":"a","labels":{"l":"v"},
       "managedFields":[{"manager":"m"}]},"spec":{"x":{"y":1}},"status":{"phase":"P"}}
      """;

  @Test
  void aPodSharesMetadataValuesAndStatusAndCopiesTheSpec() {
    ObjectNode old = parse();
    ObjectNode c = Strategies.copyForWrite(type("", "pods"), old, true);

    sameBytes(c, old);
    assertThat(c).isNotSameAs(old);
    assertThat(c.get("metadata")).isNotSameAs(old.get("metadata"));
    assertThat(c.get("metadata").get("managedFields"))
        .isSameAs(old.get("metadata").get("managedFields"));
    assertThat(c.get("metadata").get("labels")).isSameAs(old.get("metadata").get("labels"));
    assertThat(c.get("status")).isSameAs(old.get("status"));
    assertThat(c.get("spec")).isNotSameAs(old.get("spec")).isEqualTo(old.get("spec"));
    assertThat(c.get("spec").get("x")).isNotSameAs(old.get("spec").get("x"));
  }

  @Test
  void aClaimSharesAllButTheRootAndTheMetadataObject() {
    ObjectNode old = parse();
    ObjectNode c = Strategies.copyForWrite(type("resource.k8s.io", "resourceclaims"), old, true);

    sameBytes(c, old);
    assertThat(c.get("metadata")).isNotSameAs(old.get("metadata"));
    assertThat(c.get("spec")).isSameAs(old.get("spec"));
    assertThat(c.get("status")).isSameAs(old.get("status"));
    // the copy's metadata changes alone
    ((ObjectNode) c.get("metadata")).put("resourceVersion", "5");
    assertThat(old.get("metadata").has("resourceVersion")).isFalse();
  }

  @Test
  void otherKindsAndWritesWithoutSharingGetDeepCopies() {
    ObjectNode old = parse();
    for (ObjectNode c :
        new ObjectNode[] {
          Strategies.copyForWrite(type("", "nodes"), old, true),
          Strategies.copyForWrite(type("", "pods"), old, false),
          Strategies.copyForWrite(type("resource.k8s.io", "resourceclaims"), old, false)
        }) {
      sameBytes(c, old);
      assertThat(c.get("metadata").get("labels")).isNotSameAs(old.get("metadata").get("labels"));
      assertThat(c.get("spec")).isNotSameAs(old.get("spec"));
      assertThat(c.get("status")).isNotSameAs(old.get("status"));
    }
  }

  @Test
  void aDeletedObjectsLastStateGetsItsOwnRootAndMetadata() {
    ObjectNode old = parse();
    ObjectNode last = Strategies.withOwnMetadata(old);

    sameBytes(last, old);
    assertThat(last.get("metadata")).isNotSameAs(old.get("metadata"));
    assertThat(last.get("spec")).isSameAs(old.get("spec"));
    ((ObjectNode) last.get("metadata")).put("resourceVersion", "7");
    assertThat(old.get("metadata").has("resourceVersion")).isFalse();
  }

  private static ResourceType type(String group, String plural) {
    return REGISTRY.find(group, "v1", plural).orElseThrow();
  }

  private static ObjectNode parse() {
    return Json.parseObject(OBJECT.getBytes(StandardCharsets.UTF_8));
  }

  private static void sameBytes(ObjectNode a, ObjectNode b) {
    assertThat(new String(Json.bytes(a), StandardCharsets.UTF_8))
        .isEqualTo(new String(Json.bytes(b), StandardCharsets.UTF_8));
  }
}
