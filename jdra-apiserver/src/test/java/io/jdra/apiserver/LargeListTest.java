package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.WriteOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Lists above the streaming threshold arrive whole and as valid JSON, in key order. */
class LargeListTest {
  private static final int COUNT = 1500;
  private static EmbeddedApiServer server;

  @BeforeAll
  static void fill() {
    server = EmbeddedApiServer.start(ApiServerOptions.inMemory());
    ResourceType cms = server.service().registry().find("", "v1", "configmaps").orElseThrow();
    String value = "v".repeat(1000);
    for (int i = 0; i < COUNT; i++) {
      String body =
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm-%04d\"},"
                  .formatted(i)
              + "\"data\":{\"k\":\""
              + value
              + "\"}}";
      server
          .service()
          .create(cms, "default", Json.parseObject(body.getBytes()), WriteOptions.DEFAULT)
          .join();
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void streamedListIsCompleteValidJson() throws Exception {
    HttpResponse<byte[]> resp =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(server.url() + "/api/v1/namespaces/default/configmaps"))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());

    assertThat(resp.statusCode()).isEqualTo(200);
    assertThat(resp.body().length).isGreaterThan(1 << 20);
    JsonNode list = Json.MAPPER.readTree(resp.body());
    assertThat(list.path("kind").asString()).isEqualTo("ConfigMapList");
    assertThat(list.path("metadata").path("resourceVersion").asString())
        .isEqualTo(Long.toString(server.currentResourceVersion()));
    JsonNode items = list.path("items");
    assertThat(items.size()).isEqualTo(COUNT);
    for (int i = 0; i < COUNT; i++) {
      assertThat(items.get(i).path("metadata").path("name").asString())
          .isEqualTo("cm-%04d".formatted(i));
    }
  }

  @Test
  void fabric8ReadsAStreamedList() {
    try (KubernetesClient c = ServerFixture.client(server)) {
      Set<String> names = new HashSet<>();
      c.configMaps()
          .inNamespace("default")
          .list()
          .getItems()
          .forEach(cm -> names.add(cm.getMetadata().getName()));
      assertThat(names).hasSize(COUNT).contains("cm-0000", "cm-1499");
      c.resource(new ConfigMapBuilder().withNewMetadata().withName("after").endMetadata().build())
          .create();
      assertThat(c.configMaps().inNamespace("default").list().getItems()).hasSize(COUNT + 1);
      c.configMaps().inNamespace("default").withName("after").delete();
    }
  }
}
