package io.jdra.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients over HTTPS as users run {@code jdra apiserver}: HTTP/2 is offered through ALPN (as
 * kube-apiserver does) and HTTP/1.1 still works; the fabric8 client from the written kubeconfig
 * creates, watches (WebSocket) and runs informers.
 */
class HttpsClientsTest {
  @TempDir static Path dir;
  static EmbeddedApiServer server;
  static Path kubeconfig;

  @BeforeAll
  static void start() {
    kubeconfig = dir.resolve("kubeconfig");
    server =
        EmbeddedApiServer.start(
            ApiServerOptions.inMemory().withSecurity(true).withKubeconfig(kubeconfig));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static HttpResponse<String> get(HttpClient.Version version, String path)
      throws Exception {
    return get(version, path, "Bearer " + server.token());
  }

  private static HttpResponse<String> get(
      HttpClient.Version version, String path, String authorization) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    trust.setCertificateEntry(
        "ca",
        CertificateFactory.getInstance("X.509")
            .generateCertificate(
                new ByteArrayInputStream(
                    server.caCertificatePem().getBytes(StandardCharsets.UTF_8))));
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    HttpClient c = HttpClient.newBuilder().sslContext(ssl).version(version).build();
    return c.send(
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .header("Authorization", authorization)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void bearerSchemeIsCaseInsensitiveAndTheTokenMustMatch() throws Exception {
    String path = "/api/v1/namespaces/default";
    assertThat(get(HttpClient.Version.HTTP_1_1, path, "bearer " + server.token()).statusCode())
        .isEqualTo(200);
    assertThat(get(HttpClient.Version.HTTP_1_1, path, "BEARER " + server.token()).statusCode())
        .isEqualTo(200);
    assertThat(get(HttpClient.Version.HTTP_1_1, path, "Bearer x" + server.token()).statusCode())
        .isEqualTo(401);
    assertThat(get(HttpClient.Version.HTTP_1_1, path, "Basic " + server.token()).statusCode())
        .isEqualTo(401);
  }

  @Test
  void offersHttp2AndKeepsHttp11() throws Exception {
    HttpResponse<String> h2 = get(HttpClient.Version.HTTP_2, "/api/v1/namespaces/default");
    assertThat(h2.statusCode()).isEqualTo(200);
    assertThat(h2.version()).isEqualTo(HttpClient.Version.HTTP_2);
    HttpResponse<String> h1 = get(HttpClient.Version.HTTP_1_1, "/api/v1/namespaces/default");
    assertThat(h1.statusCode()).isEqualTo(200);
    assertThat(h1.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    assertThat(h2.body()).isEqualTo(h1.body());
  }

  @Test
  void fabric8FromTheKubeconfigCreatesWatchesAndInforms() throws Exception {
    Config config =
        Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString());
    try (KubernetesClient c = new KubernetesClientBuilder().withConfig(config).build()) {
      List<String> seen = new CopyOnWriteArrayList<>();
      Watch w =
          c.configMaps()
              .inNamespace("default")
              .watch(
                  new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, ConfigMap cm) {
                      seen.add(action + " " + cm.getMetadata().getName());
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                  });
      SharedIndexInformer<ConfigMap> informer = c.configMaps().inNamespace("default").inform();
      c.resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("over-tls")
                  .endMetadata()
                  .addToData("k", "v")
                  .build())
          .create();

      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(seen).contains("ADDED over-tls"));
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> assertThat(informer.getStore().getByKey("default/over-tls")).isNotNull());
      w.close();
      informer.close();
    }
  }
}
