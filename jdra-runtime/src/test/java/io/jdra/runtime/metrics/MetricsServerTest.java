package io.jdra.runtime.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class MetricsServerTest {
  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> get(MetricsServer s, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void servesMetricsHealthAndNamedReadinessChecks() throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    Counter.builder().name("demo_total").help("demo").register(registry).inc();
    AtomicReference<String> sync = new AtomicReference<>("informers not synced");
    try (MetricsServer s = MetricsServer.start("127.0.0.1:0", registry)) {
      s.addReadyzCheck("ping", () -> null).addReadyzCheck("informer-sync", sync::get);

      HttpResponse<String> metrics = get(s, "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("demo_total 1.0");
      assertThat(get(s, "/healthz").body()).isEqualTo("ok\n");
      assertThat(get(s, "/livez").statusCode()).isEqualTo(200);

      HttpResponse<String> notReady = get(s, "/readyz");
      assertThat(notReady.statusCode()).isEqualTo(500);
      assertThat(notReady.body())
          .contains("[+]ping ok")
          .contains("[-]informer-sync failed: informers not synced")
          .contains("readyz check failed");

      sync.set(null);
      assertThat(get(s, "/readyz").statusCode()).isEqualTo(200);
      assertThat(get(s, "/readyz?verbose").body()).contains("[+]informer-sync ok");
    }
  }

  @Test
  void badBindAddressesAreRefusedClearly() {
    assertThatThrownBy(() -> MetricsServer.start("8080", new PrometheusRegistry()))
        .hasMessageContaining("must be host:port or :port");
    assertThatThrownBy(() -> MetricsServer.start(":x", new PrometheusRegistry()))
        .hasMessageContaining("bad port");
  }
}
