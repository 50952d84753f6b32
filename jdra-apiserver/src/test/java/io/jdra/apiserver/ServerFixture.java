package io.jdra.apiserver;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Starts an in-memory server and a fabric8 client for a test class. */
final class ServerFixture implements AutoCloseable {
  final EmbeddedApiServer server;
  final KubernetesClient client;
  private final HttpClient http = HttpClient.newHttpClient();

  ServerFixture() {
    this(ApiServerOptions.inMemory().withBookmarkInterval(Duration.ofMillis(200)));
  }

  ServerFixture(ApiServerOptions options) {
    server = EmbeddedApiServer.start(options);
    client = client(server);
  }

  static KubernetesClient client(EmbeddedApiServer server) {
    Config config =
        new ConfigBuilder()
            .withMasterUrl(server.url().toString())
            .withNamespace("default")
            .withRequestRetryBackoffLimit(0)
            .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** A raw request: method, path, content type, body; returns status and body. */
  HttpResponse<String> raw(String method, String path, String contentType, String body) {
    try {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path));
      if (contentType != null) {
        b.header("Content-Type", contentType);
      }
      b.method(
          method,
          body == null
              ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofString(body));
      return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  HttpResponse<String> get(String path, String accept) {
    try {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path));
      if (accept != null) {
        b.header("Accept", accept);
      }
      return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    client.close();
    server.close();
  }
}
