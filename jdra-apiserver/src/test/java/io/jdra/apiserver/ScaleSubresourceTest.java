package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.meta.Json;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The scale subresource of Deployments and ReplicaSets as upstream serves it (what {@code kubectl
 * scale} and autoscalers use): an autoscaling/v1 Scale with the selector as a string; PUT and merge
 * PATCH change {@code spec.replicas} only (and move the generation); a stale resourceVersion is a
 * 409, a negative count a 422; discovery lists {@code deployments/scale}.
 */
class ScaleSubresourceTest {
  static ServerFixture f;
  static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";

  @BeforeAll
  static void start() {
    f = new ServerFixture();
    HttpResponse<String> r =
        f.raw(
            "POST",
            DEPLOYMENTS,
            "application/json",
            """
            {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
             "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web","tier":"a"}},
              "template":{"metadata":{"labels":{"app":"web","tier":"a"}},
               "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}\
            """);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  @Test
  void getPutPatch() {
    HttpResponse<String> get = f.get(DEPLOYMENTS + "/web/scale", null);
    assertThat(get.statusCode()).as(get.body()).isEqualTo(200);
    assertThat(get.body())
        .contains("\"kind\":\"Scale\"", "\"apiVersion\":\"autoscaling/v1\"")
        .contains("\"spec\":{\"replicas\":3}")
        .contains("\"selector\":\"app=web,tier=a\"");

    HttpResponse<String> patch =
        f.raw(
            "PATCH",
            DEPLOYMENTS + "/web/scale",
            "application/merge-patch+json",
            "{\"spec\":{\"replicas\":5}}");
    assertThat(patch.statusCode()).as(patch.body()).isEqualTo(200);
    assertThat(patch.body()).contains("\"spec\":{\"replicas\":5}");
    String d = f.get(DEPLOYMENTS + "/web", null).body();
    assertThat(d).contains("\"replicas\":5").contains("\"generation\":2");

    HttpResponse<String> put =
        f.raw(
            "PUT",
            DEPLOYMENTS + "/web/scale",
            "application/json",
            "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\"web\"},"
                + "\"spec\":{\"replicas\":2}}");
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    assertThat(f.get(DEPLOYMENTS + "/web", null).body()).contains("\"replicas\":2");
  }

  @Test
  void staleVersionConflictsAndNegativeIsInvalid() {
    HttpResponse<String> stale =
        f.raw(
            "PUT",
            DEPLOYMENTS + "/web/scale",
            "application/json",
            "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\","
                + "\"metadata\":{\"name\":\"web\",\"resourceVersion\":\"1\"},"
                + "\"spec\":{\"replicas\":4}}");
    assertThat(stale.statusCode()).as(stale.body()).isEqualTo(409);
    HttpResponse<String> negative =
        f.raw(
            "PATCH",
            DEPLOYMENTS + "/web/scale",
            "application/merge-patch+json",
            "{\"spec\":{\"replicas\":-1}}");
    assertThat(negative.statusCode()).as(negative.body()).isEqualTo(422);
    assertThat(negative.body()).contains("spec.replicas", "must be greater than or equal to 0");
  }

  @Test
  void discoveryListsScale() {
    String body = f.get("/apis/apps/v1", null).body();
    assertThat(body)
        .contains("\"name\":\"deployments/scale\"")
        .contains("\"name\":\"replicasets/scale\"")
        .contains("\"group\":\"autoscaling\"");
  }

  @Test
  void scalingIsRecordedAsAnUpdateOfTheScaleSubresource() {
    HttpResponse<String> created =
        f.raw(
            "POST",
            DEPLOYMENTS + "?fieldManager=creator",
            "application/json",
            """
            {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"tracked"},
             "spec":{"replicas":1,"selector":{"matchLabels":{"app":"t"}},
              "template":{"metadata":{"labels":{"app":"t"}},
               "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}\
            """);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    HttpResponse<String> patch =
        f.raw(
            "PATCH",
            DEPLOYMENTS + "/tracked/scale?fieldManager=scaler",
            "application/merge-patch+json",
            "{\"spec\":{\"replicas\":4}}");
    assertThat(patch.statusCode()).as(patch.body()).isEqualTo(200);

    JsonNode managed =
        Json.MAPPER
            .readTree(f.get(DEPLOYMENTS + "/tracked", null).body())
            .at("/metadata/managedFields");
    JsonNode scaler = null;
    JsonNode creator = null;
    for (JsonNode e : managed) {
      if (e.get("manager").asString().equals("scaler")) {
        scaler = e;
      } else if (e.get("manager").asString().equals("creator")) {
        creator = e;
      }
    }
    assertThat(scaler).as(managed.toString()).isNotNull();
    assertThat(scaler.get("operation").asString()).isEqualTo("Update");
    assertThat(scaler.get("subresource").asString()).isEqualTo("scale");
    assertThat(scaler.get("fieldsV1"))
        .isEqualTo(Json.MAPPER.readTree("{\"f:spec\":{\"f:replicas\":{}}}"));
    assertThat(creator).as(managed.toString()).isNotNull();
    assertThat(creator.at("/fieldsV1/f:spec/f:replicas").isMissingNode()).isTrue();
    assertThat(creator.at("/fieldsV1/f:spec/f:template").isMissingNode()).isFalse();
  }
}
