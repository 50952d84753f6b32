package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * PUT and the patch types other than apply record their writer in metadata.managedFields as an
 * Update entry, as upstream's field manager does; the server's own writes for a pod's binding do
 * not, and a write that changes nothing changes neither the object nor its managed fields.
 */
class UpdateManagedFieldsTest {
  static ServerFixture f;
  static final String PODS = "/api/v1/namespaces/default/pods";

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  static JsonNode create(String name) {
    HttpResponse<String> r =
        f.raw(
            "POST",
            PODS + "?fieldManager=creator",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
                + name
                + "\",\"labels\":{\"a\":\"1\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox:1\"}]}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return Json.MAPPER.readTree(r.body());
  }

  static JsonNode get(String name) {
    return Json.MAPPER.readTree(f.raw("GET", PODS + "/" + name, null, null).body());
  }

  static JsonNode entry(JsonNode pod, String manager) {
    for (JsonNode e : pod.at("/metadata/managedFields")) {
      if (e.get("manager").asString().equals(manager)) {
        return e;
      }
    }
    return null;
  }

  static String withLabel(JsonNode pod, String key, String value) {
    JsonNode copy = pod.deepCopy();
    ((tools.jackson.databind.node.ObjectNode) copy.at("/metadata/labels")).put(key, value);
    return copy.toString();
  }

  @Test
  void putRecordsAnUpdateEntryAndTakesTheFieldFromItsFormerManager() {
    JsonNode pod = create("put");
    HttpResponse<String> r =
        f.raw(
            "PUT", PODS + "/put?fieldManager=editor", "application/json", withLabel(pod, "a", "2"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

    JsonNode stored = get("put");
    JsonNode editor = entry(stored, "editor");
    assertThat(editor).isNotNull();
    assertThat(editor.get("operation").asString()).isEqualTo("Update");
    assertThat(editor.get("apiVersion").asString()).isEqualTo("v1");
    assertThat(editor.has("subresource")).isFalse();
    assertThat(editor.get("fieldsV1"))
        .isEqualTo(Json.MAPPER.readTree("{\"f:metadata\":{\"f:labels\":{\"f:a\":{}}}}"));
    JsonNode creator = entry(stored, "creator");
    assertThat(creator.at("/fieldsV1/f:metadata/f:labels/f:a").isMissingNode()).isTrue();
    assertThat(creator.at("/fieldsV1/f:spec/f:containers").isMissingNode()).isFalse();
  }

  @Test
  void mergePatchWithoutFieldManagerIsRecordedUnderTheUserAgentsProduct() {
    create("merge");
    HttpResponse<String> r =
        f.raw(
            "PATCH",
            PODS + "/merge",
            "application/merge-patch+json",
            "{\"metadata\":{\"annotations\":{\"note\":\"x\"}}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

    // java.net.http sends "Java-http-client/<version>"; upstream takes what precedes the "/"
    JsonNode e = entry(get("merge"), "Java-http-client");
    assertThat(e).isNotNull();
    assertThat(e.get("operation").asString()).isEqualTo("Update");
    assertThat(e.at("/fieldsV1/f:metadata/f:annotations/f:note").isMissingNode()).isFalse();
  }

  @Test
  void statusWriteIsRecordedForTheStatusSubresource() {
    create("status");
    HttpResponse<String> r =
        f.raw(
            "PATCH",
            PODS + "/status/status?fieldManager=kubelet",
            "application/strategic-merge-patch+json",
            "{\"status\":{\"phase\":\"Running\"}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

    JsonNode e = entry(get("status"), "kubelet");
    assertThat(e).isNotNull();
    assertThat(e.get("subresource").asString()).isEqualTo("status");
    assertThat(e.get("fieldsV1"))
        .isEqualTo(Json.MAPPER.readTree("{\"f:status\":{\"f:phase\":{}}}"));
  }

  @Test
  void aWriteThatChangesNothingKeepsVersionAndManagedFields() {
    JsonNode pod = create("noop");
    HttpResponse<String> r =
        f.raw("PUT", PODS + "/noop?fieldManager=editor", "application/json", pod.toString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);

    JsonNode stored = get("noop");
    assertThat(stored.at("/metadata/resourceVersion"))
        .isEqualTo(pod.at("/metadata/resourceVersion"));
    assertThat(stored.at("/metadata/managedFields")).isEqualTo(pod.at("/metadata/managedFields"));
  }

  @Test
  void applyConflictsWithAFieldAnUpdateTookOver() {
    String applyBody =
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"conflict\","
            + "\"labels\":{\"owner\":\"applier\"}},"
            + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox:1\"}]}}";
    HttpResponse<String> applied =
        f.raw(
            "PATCH",
            PODS + "/conflict?fieldManager=applier",
            "application/apply-patch+yaml",
            applyBody);
    assertThat(applied.statusCode()).as(applied.body()).isEqualTo(201);
    HttpResponse<String> patched =
        f.raw(
            "PATCH",
            PODS + "/conflict?fieldManager=editor",
            "application/merge-patch+json",
            "{\"metadata\":{\"labels\":{\"owner\":\"editor\"}}}");
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);

    HttpResponse<String> again =
        f.raw(
            "PATCH",
            PODS + "/conflict?fieldManager=applier",
            "application/apply-patch+yaml",
            applyBody);
    assertThat(again.statusCode()).as(again.body()).isEqualTo(409);
    assertThat(again.body())
        .contains("conflict with \\\"editor\\\"")
        .contains(".metadata.labels.owner");
  }

  @Test
  void bindingAddsNoEntry() {
    JsonNode pod = create("bound");
    HttpResponse<String> r =
        f.raw(
            "POST",
            PODS + "/bound/binding",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"bound\"},"
                + "\"target\":{\"kind\":\"Node\",\"name\":\"n1\"}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);

    JsonNode stored = get("bound");
    assertThat(stored.at("/spec/nodeName").asString()).isEqualTo("n1");
    assertThat(stored.at("/metadata/managedFields")).isEqualTo(pod.at("/metadata/managedFields"));
  }
}
