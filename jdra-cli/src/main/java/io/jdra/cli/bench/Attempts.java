package io.jdra.cli.bench;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.Map;
import java.util.TreeMap;

/**
 * The scheduler's scheduler_schedule_attempts_total by result (scheduled, unschedulable, error).
 */
final class Attempts {
  private Attempts() {}

  static Map<String, Long> read(PrometheusRegistry registry) {
    Map<String, Long> out = new TreeMap<>();
    for (MetricSnapshot s : registry.scrape()) {
      if (s instanceof CounterSnapshot cs
          && cs.getMetadata().getPrometheusName().startsWith("scheduler_schedule_attempts")) {
        for (CounterSnapshot.CounterDataPointSnapshot d : cs.getDataPoints()) {
          String result = d.getLabels().get("result");
          out.merge(result == null ? "total" : result, (long) d.getValue(), Long::sum);
        }
      }
    }
    return out;
  }
}
