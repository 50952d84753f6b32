package io.jdra.runtime.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CombinedMetricsTest {
  /** A kubelet-like registry: a counter with a label, a histogram and a gauge. */
  private static PrometheusRegistry node(double prepared) {
    PrometheusRegistry r = new PrometheusRegistry();
    Counter.builder()
        .name("dra_operations_total")
        .labelNames("operation_name")
        .register(r)
        .labelValues("PrepareResources")
        .inc(prepared);
    Histogram.builder()
        .name("dra_grpc_operations_duration_seconds")
        .classicUpperBounds(0.1, 1)
        .register(r)
        .observe(0.05);
    Gauge.builder().name("dra_resource_claims_in_use").register(r).set(prepared);
    return r;
  }

  private static String text(MetricSnapshots s) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, s);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void seriesOfTwoNodesAreOneFamilyKeptApartByNode() throws IOException {
    PrometheusRegistry scheduler = new PrometheusRegistry();
    Counter.builder().name("scheduler_schedule_attempts_total").register(scheduler).inc(3);
    CombinedMetrics m =
        new CombinedMetrics()
            .add(scheduler, Labels.EMPTY)
            .add(node(2), Labels.of("node", "node-1"))
            .add(node(5), Labels.of("node", "node-2"));
    MetricSnapshots s = m.get();
    assertThat(s.stream().map(x -> x.getMetadata().getPrometheusName()))
        .containsExactlyInAnyOrder(
            "scheduler_schedule_attempts",
            "dra_operations",
            "dra_grpc_operations_duration_seconds",
            "dra_resource_claims_in_use");
    String t = text(s);
    assertThat(t)
        .contains("scheduler_schedule_attempts_total 3.0")
        .contains("dra_operations_total{node=\"node-1\",operation_name=\"PrepareResources\"} 2.0")
        .contains("dra_operations_total{node=\"node-2\",operation_name=\"PrepareResources\"} 5.0")
        .contains("dra_grpc_operations_duration_seconds_bucket{node=\"node-2\",le=\"0.1\"} 1")
        .contains("dra_resource_claims_in_use{node=\"node-1\"} 2.0");
    assertThat(t.split("# TYPE dra_operations_total counter", -1)).hasSize(2);
  }

  @Test
  void theSameSeriesFromTwoSourcesIsKeptOnce() throws IOException {
    PrometheusRegistry a = new PrometheusRegistry();
    Counter.builder().name("x_total").register(a).inc(1);
    PrometheusRegistry b = new PrometheusRegistry();
    Counter.builder().name("x_total").register(b).inc(7);
    String t = text(new CombinedMetrics().add(a, Labels.EMPTY).add(b, Labels.EMPTY).get());
    assertThat(t).contains("x_total 1.0").doesNotContain("x_total 7.0");
  }

  @Test
  void aSourceAddedLaterIsServed() throws Exception {
    CombinedMetrics m = new CombinedMetrics();
    try (MetricsServer server = MetricsServer.start("127.0.0.1:0", m)) {
      m.add(node(1), Labels.of("node", "node-9"));
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).contains("dra_resource_claims_in_use{node=\"node-9\"} 1.0");
    }
  }
}
