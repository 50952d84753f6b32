package io.jdra.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An Update's managed-fields bookkeeping writes the stored FieldsV1 of the entries it leaves
 * unchanged again instead of encoding their sets anew: the same entries as re-encoding them.
 */
class ManagedFieldsReuseTest {
  private static final String V1 = "resource.k8s.io/v1";
  private static final Instant T0 = Instant.parse("2026-11-27T07:00:00Z");
  private static final Instant T1 = Instant.parse("2026-11-27T07:00:05Z");

  @Test
  void unchangedEntriesKeepTheirStoredEncoding() {
    ObjectNode created =
        Patcher.trackUpdateSharing(V1, "ResourceClaim", null, claim(false), "controller", T0, "");
    ObjectNode stored = reparse(created);

    // the scheduler adds its finalizer, sending the stored managed fields back
    ObjectNode put = claim(true);
    ((ObjectNode) put.get("metadata")).set("managedFields", stored.at("/metadata/managedFields"));
    ObjectNode updated =
        Patcher.trackUpdateSharing(V1, "ResourceClaim", stored, put, "scheduler", T1, "");

    JsonNode entries = updated.at("/metadata/managedFields");
    assertThat(entries.size()).isEqualTo(2);
    assertThat(entries.get(0).get("manager").asString()).isEqualTo("controller");
    assertThat(entries.get(0).get("fieldsV1"))
        .isSameAs(stored.at("/metadata/managedFields/0/fieldsV1"));
    assertThat(entries.get(1).at("/fieldsV1/f:metadata/f:finalizers")).isNotNull();
    // and the same entries as decoding and encoding them all
    ObjectNode reencoded = updated.deepCopy();
    ManagedFields.encodeInto(reencoded, ManagedFields.decode(entries));
    assertThat(reencoded.at("/metadata/managedFields")).isEqualTo(entries);
  }

  @Test
  void anEntryTheWriteChangesIsEncodedAnew() {
    ObjectNode stored =
        reparse(
            Patcher.trackUpdateSharing(
                V1, "ResourceClaim", null, claim(true), "controller", T0, ""));
    // another manager takes the finalizers over: the controller's set changes
    ObjectNode put = claim(false);
    ((ObjectNode) put.get("metadata")).putArray("finalizers").add("other.example.com/f");
    ((ObjectNode) put.get("metadata")).set("managedFields", stored.at("/metadata/managedFields"));
    ObjectNode updated =
        Patcher.trackUpdateSharing(V1, "ResourceClaim", stored, put, "other", T1, "");

    JsonNode controller = updated.at("/metadata/managedFields/0");
    assertThat(controller.get("manager").asString()).isEqualTo("controller");
    assertThat(controller.get("fieldsV1"))
        .isNotSameAs(stored.at("/metadata/managedFields/0/fieldsV1"));
    assertThat(controller.get("fieldsV1").toString()).doesNotContain("delete-protection");
  }

  private static ObjectNode claim(boolean finalizer) {
    ObjectNode c =
        Json.parseObject(
            """
            {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
             "metadata":{"name":"c","namespace":"ns","labels":{"a":"b"}},
             "spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"d"}}]}}}
            """
                .getBytes(StandardCharsets.UTF_8));
    if (finalizer) {
      ((ObjectNode) c.get("metadata"))
          .putArray("finalizers")
          .add("resource.kubernetes.io/delete-protection");
    }
    return c;
  }

  private static ObjectNode reparse(ObjectNode o) {
    return Json.parseObject(Json.bytes(o));
  }
}
