package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Server-side apply to a status subresource records the applier's fields under that subresource, as
 * upstream's field manager does (the ResourceClaim controller applies pods/status this way).
 */
class StatusApplyTest {
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

  @Test
  void applyToStatusRecordsAnApplyEntryForTheStatusSubresource() {
    HttpResponse<String> created =
        f.raw(
            "POST",
            PODS + "?fieldManager=creator",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox:1\"}]}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

    HttpResponse<String> applied =
        f.raw(
            "PATCH",
            PODS + "/p/status?fieldManager=ctrl&force=true",
            "application/apply-patch+yaml",
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
                + "\"namespace\":\"default\"},\"status\":{\"resourceClaimStatuses\":"
                + "[{\"name\":\"gpu\",\"resourceClaimName\":\"p-gpu\"}]}}");
    assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);

    JsonNode pod = Json.MAPPER.readTree(f.raw("GET", PODS + "/p", null, null).body());
    assertThat(pod.at("/status/resourceClaimStatuses/0/resourceClaimName").asString())
        .isEqualTo("p-gpu");
    JsonNode managed = pod.at("/metadata/managedFields");
    assertThat(managed.size()).isEqualTo(2);
    // sorted as upstream sorts them: Apply entries before Update ones
    JsonNode ctrl = managed.get(0);
    JsonNode creator = managed.get(1);
    assertThat(creator.get("manager").asString()).isEqualTo("creator");
    assertThat(creator.get("operation").asString()).isEqualTo("Update");
    assertThat(creator.has("subresource")).isFalse();
    assertThat(ctrl.get("manager").asString()).isEqualTo("ctrl");
    assertThat(ctrl.get("operation").asString()).isEqualTo("Apply");
    assertThat(ctrl.get("subresource").asString()).isEqualTo("status");
    assertThat(ctrl.get("fieldsV1"))
        .isEqualTo(
            Json.MAPPER.readTree(
                "{\"f:status\":{\"f:resourceClaimStatuses\":{"
                    + "\"k:{\\\"name\\\":\\\"gpu\\\"}\":{\".\":{},\"f:name\":{},"
                    + "\"f:resourceClaimName\":{}}}}}"));
  }
}
