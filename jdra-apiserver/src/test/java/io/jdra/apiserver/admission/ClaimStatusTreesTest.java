package io.jdra.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.jdra.apiserver.meta.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@link ClaimStatusTrees} reads a status into the model Jackson builds, or gives up: on an
 * allocating status write's shape and on every variant of it with one value replaced (by another
 * JSON type, null, an empty container), one field removed or an unknown field added.
 */
class ClaimStatusTreesTest {
  private static final String ALLOCATED =
      """
      {"allocation":{"devices":{"results":[{"request":"req-0","driver":"test-driver.cdi.k8s.io",
         "pool":"node-1","device":"device-1"},{"request":"req-1","driver":"d","pool":"p",
         "device":"x"}]},
        "nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name",
          "operator":"In","values":["node-1","node-2"]}],
          "matchExpressions":[{"key":"zone","operator":"Exists"}]}]},
        "allocationTimestamp":"2026-11-26T11:00:00Z"},
       "reservedFor":[{"resource":"pods","name":"pod-1","uid":"u-1","apiGroup":""}]}
      """;

  @Test
  void theAllocatingShapeIsReadAsJacksonReadsIt() {
    for (String s :
        List.of(
            ALLOCATED,
            "{}",
            "{\"reservedFor\":[]}",
            "{\"allocation\":{}}",
            "{\"allocation\":{\"devices\":{\"results\":[]}},\"reservedFor\":[{}]}")) {
      JsonNode tree = Json.MAPPER.readTree(s);
      ResourceClaimStatus fast = ClaimStatusTrees.status(tree);
      assertThat(fast).as(s).isNotNull();
      TreeVariants.assertReadAsJackson(fast, tree, ResourceClaimStatus.class);
    }
  }

  @Test
  void everyVariantIsReadAsJacksonReadsItOrLeftToJackson() {
    JsonNode base = Json.MAPPER.readTree(ALLOCATED);
    List<JsonNode> variants = new ArrayList<>();
    TreeVariants.variants(base, base, variants);
    int read =
        TreeVariants.readAsJacksonOrLeft(
            variants, ClaimStatusTrees::status, ResourceClaimStatus.class);
    assertThat(variants).hasSizeGreaterThan(300);
    // removals and the empty containers of lists keep the shape; the rest is left to Jackson
    assertThat(read).isBetween(30, variants.size() / 2);
  }

  @Test
  void notAnObjectIsLeftToJackson() {
    assertThat(ClaimStatusTrees.status(null)).isNull();
    assertThat(
            ClaimStatusTrees.status(
                tools.jackson.databind.node.JsonNodeFactory.instance.nullNode()))
        .isNull();
    assertThat(
            ClaimStatusTrees.status(
                tools.jackson.databind.node.JsonNodeFactory.instance.arrayNode()))
        .isNull();
  }
}
