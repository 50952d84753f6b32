package io.jdra.cli.bench;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.Map;
import java.util.TreeMap;

/**
 * The embedded API server's {@code apiserver_request_total} summed by verb, resource and code
 * ({@code "POST pods 201"}, {@code "PUT resourceclaims/status 200"}), so that a run can say how
 * many requests of each kind one measured pod costs, failed ones (404, 409) apart.
 */
final class RequestCounts {
  static final String METRIC = "apiserver_request_total";

  private RequestCounts() {}

  /** Requests so far by {@code "VERB resource[/subresource] CODE"}; empty without the metric. */
  static Map<String, Long> snapshot(PrometheusRegistry registry) {
    Map<String, Long> out = new TreeMap<>();
    for (MetricSnapshot s :
        registry.scrape(n -> n.equals("apiserver_request") || n.equals(METRIC))) {
      if (s instanceof CounterSnapshot cs) {
        for (CounterSnapshot.CounterDataPointSnapshot d : cs.getDataPoints()) {
          out.merge(key(d.getLabels()), (long) d.getValue(), Long::sum);
        }
      }
    }
    return out;
  }

  /** {@code after - before} per key, without the keys that did not change. */
  static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
    Map<String, Long> out = new TreeMap<>();
    after.forEach((k, v) -> {
      long d = v - before.getOrDefault(k, 0L);
      if (d != 0) {
        out.put(k, d);
      }
    });
    return out;
  }

  private static String key(Labels l) {
    String resource = l.get("resource") == null ? "" : l.get("resource");
    String sub = l.get("subresource");
    if (sub != null && !sub.isEmpty()) {
      resource += "/" + sub;
    }
    return l.get("verb") + (resource.isEmpty() ? "" : " " + resource) + " " + l.get("code");
  }
}
