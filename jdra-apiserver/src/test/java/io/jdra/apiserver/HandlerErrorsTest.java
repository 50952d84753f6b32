package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.apiserver.admission.Admission;
import io.jdra.apiserver.meta.Json;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An Error thrown while serving a request (the heap exhausted, a stack overflow) still gets an
 * answer, 500 as upstream's panic recovery gives, and writes nothing; the server goes on serving
 * (issue 15, finding 6: "never leave a request unanswered").
 */
class HandlerErrorsTest {
  static final String CMS = "/api/v1/namespaces/default/configmaps";

  /** Fails the writes of two names as a JVM in trouble would. */
  static final Admission FAILING =
      r -> {
        String name = r.object() == null ? null : Json.text(r.object(), "metadata.name");
        if ("oom".equals(name)) {
          throw new OutOfMemoryError("simulated: Java heap space");
        }
        if ("deep".equals(name)) {
          throw new StackOverflowError("simulated");
        }
        return List.of();
      };

  static String configMap(String name) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + name
        + "\"}}";
  }

  @Test
  void anErrorWhileWritingIsAnswered500AndNothingIsStored() {
    try (ServerFixture f = new ServerFixture(ApiServerOptions.inMemory().withAdmission(FAILING))) {
      for (String name : List.of("oom", "deep")) {
        HttpResponse<String> r = f.raw("POST", CMS, "application/json", configMap(name));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(500);
        assertThat(r.body())
            .contains("\"reason\":\"InternalError\"")
            .contains("Internal error occurred");
        assertThat(f.raw("GET", CMS + "/" + name, null, null).statusCode()).isEqualTo(404);
      }
      assertThat(f.raw("POST", CMS, "application/json", configMap("fine")).statusCode())
          .isEqualTo(201);
    }
  }
}
