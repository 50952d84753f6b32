package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The namespaces the server needs cannot be deleted, alone or with the whole collection. */
class NamespaceLifecycleTest {
  static ServerFixture f;

  @BeforeAll
  static void start() {
    f = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"default", "kube-system", "kube-public"})
  void immortalNamespaceIsNotDeleted(String name) {
    HttpResponse<String> r = f.raw("DELETE", "/api/v1/namespaces/" + name, null, null);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
    assertThat(r.body())
        .contains("\"reason\":\"Forbidden\"")
        .contains(
            "\"message\":\"namespaces \\\""
                + name
                + "\\\" is forbidden: this namespace may not be deleted\"");
    assertThat(f.get("/api/v1/namespaces/" + name, null).body())
        .doesNotContain("deletionTimestamp");
  }

  @Test
  void deleteCollectionSparesImmortalNamespacesAndDeletesTheOthers() {
    HttpResponse<String> created =
        f.raw(
            "POST",
            "/api/v1/namespaces",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"doomed\"}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

    HttpResponse<String> r = f.raw("DELETE", "/api/v1/namespaces", null, null);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
    for (String ns : new String[] {"default", "kube-system", "kube-public"}) {
      assertThat(f.get("/api/v1/namespaces/" + ns, null).body())
          .doesNotContain("deletionTimestamp");
    }
    HttpResponse<String> doomed = f.get("/api/v1/namespaces/doomed", null);
    assertThat(doomed.statusCode() == 404 || doomed.body().contains("deletionTimestamp"))
        .as(doomed.body())
        .isTrue();
    HttpResponse<String> cm =
        f.raw(
            "POST",
            "/api/v1/namespaces/default/configmaps",
            "application/json",
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"after\"}}");
    assertThat(cm.statusCode()).as(cm.body()).isEqualTo(201);
  }
}
