package io.jdra.runtime.workqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.runtime.clock.FakeClock;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WorkQueueMetricsTest {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final FakeClock clock = new FakeClock();
  private final RateLimitingQueue<String> q =
      WorkQueues.rateLimiting(
          "resource_claim",
          RateLimiters.exponential(Duration.ofMillis(5), Duration.ofSeconds(1)),
          clock,
          WorkQueueMetrics.create(registry));

  private String scrape() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, registry.scrape());
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void upstreamNamesAndValuesWithTheQueueNameAsLabel() throws IOException {
    q.add("a");
    q.add("a");
    q.add("b");
    clock.step(Duration.ofSeconds(2));
    String item = q.get();
    clock.step(Duration.ofSeconds(3));

    String during = scrape();
    assertThat(during)
        .contains("workqueue_depth{name=\"resource_claim\"} 1.0")
        .contains("workqueue_adds_total{name=\"resource_claim\"} 2.0")
        .contains("workqueue_queue_duration_seconds_bucket{name=\"resource_claim\",le=\"10.0\"} 1")
        .contains("workqueue_queue_duration_seconds_bucket{name=\"resource_claim\",le=\"1.0\"} 0")
        .contains("workqueue_unfinished_work_seconds{name=\"resource_claim\"} 3.0")
        .contains("workqueue_longest_running_processor_seconds{name=\"resource_claim\"} 3.0");

    q.addRateLimited(item);
    q.done(item);
    String after = scrape();
    assertThat(after)
        .contains("workqueue_retries_total{name=\"resource_claim\"} 1.0")
        .contains("workqueue_work_duration_seconds_count{name=\"resource_claim\"} 1")
        .contains("workqueue_work_duration_seconds_sum{name=\"resource_claim\"} 3.0")
        .contains("workqueue_unfinished_work_seconds{name=\"resource_claim\"} 0.0");
  }
}
