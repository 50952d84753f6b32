package io.jdra.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.apiserver.meta.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link MetaTrees} reads metadata (and a claim of metadata alone) into the model Jackson builds,
 * or gives up: on the metadata of a template's claim, as created and with its finalizer, and on
 * every variant of it with one value replaced, one field removed or an unknown field added.
 */
class MetaTreesTest {
  private static final String META =
      """
      {"name":"pod-1-gpu-x2b4","generateName":"pod-1-gpu-","namespace":"default","uid":"u-1",
       "resourceVersion":"42","generation":1,"creationTimestamp":"2026-11-27T10:00:00Z",
       "deletionTimestamp":"2026-11-27T10:01:00Z","deletionGracePeriodSeconds":0,
       "labels":{"app":"a","tier":""},
       "annotations":{"resource.kubernetes.io/pod-claim-name":"gpu"},
       "finalizers":["resource.kubernetes.io/delete-protection"],
       "ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"pod-1","uid":"p-1",
         "controller":true,"blockOwnerDeletion":true}]}
      """;

  @Test
  void metadataIsReadAsJacksonReadsIt() {
    for (String s : List.of(META, "{}", "{\"labels\":{},\"finalizers\":[]}")) {
      JsonNode tree = Json.MAPPER.readTree(s);
      ObjectMeta fast = MetaTrees.meta(tree);
      assertThat(fast).as(s).isNotNull();
      TreeVariants.assertReadAsJackson(fast, tree, ObjectMeta.class);
    }
  }

  @Test
  void everyVariantIsReadAsJacksonReadsItOrLeftToJackson() {
    JsonNode base = Json.MAPPER.readTree(META);
    List<JsonNode> variants = new ArrayList<>();
    TreeVariants.variants(base, base, variants);
    int read = TreeVariants.readAsJacksonOrLeft(variants, MetaTrees::meta, ObjectMeta.class);
    assertThat(variants).hasSizeGreaterThan(150);
    assertThat(read).isBetween(25, variants.size() / 2);
  }

  @Test
  void aClaimOfMetadataAloneIsReadAsJacksonReadsIt() {
    ObjectNode claim =
        (ObjectNode)
            Json.MAPPER.readTree(
                "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":"
                    + META
                    + "}");
    List<JsonNode> variants = new ArrayList<>();
    variants.add(claim);
    variants.add(Json.MAPPER.readTree("{\"metadata\":{\"name\":\"a\"}}"));
    TreeVariants.variants(claim, claim, variants);
    int read =
        TreeVariants.readAsJacksonOrLeft(
            variants, v -> MetaTrees.claim((ObjectNode) v), ResourceClaim.class);
    assertThat(MetaTrees.claim(claim)).isNotNull();
    assertThat(read).isGreaterThan(25);
    ObjectNode withSpec = claim.deepCopy();
    withSpec.putObject("spec");
    assertThat(MetaTrees.claim(withSpec)).isNull();
  }

  @Test
  void notAnObjectIsLeftToJackson() {
    assertThat(MetaTrees.meta(null)).isNull();
    assertThat(MetaTrees.meta(Json.MAPPER.readTree("[]"))).isNull();
  }
}
