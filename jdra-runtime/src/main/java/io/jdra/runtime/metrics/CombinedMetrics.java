package io.jdra.runtime.metrics;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot.SummaryDataPointSnapshot;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The metrics of several components of one process on one endpoint, as {@code jdra up} serves them:
 * each component keeps its own registry (as if it were its own process), and a scrape merges them,
 * adding each source's labels (a kubelet's series get {@code node="node-1"}) so that series of the
 * same name from several nodes stay apart. Series with the same name and labels from two sources
 * are kept once (the first source's). Thread-safe; sources may be added while scraped.
 */
public final class CombinedMetrics implements Supplier<MetricSnapshots> {
  private record Source(PrometheusRegistry registry, Labels labels) {}

  private final List<Source> sources = new CopyOnWriteArrayList<>();

  /** Adds a component's registry; {@code labels} are added to each of its series. */
  public CombinedMetrics add(PrometheusRegistry registry, Labels labels) {
    sources.add(new Source(registry, labels));
    return this;
  }

  /** Scrapes every source and merges the families of the same name. */
  @Override
  public MetricSnapshots get() {
    Map<String, List<MetricSnapshot>> byName = new LinkedHashMap<>();
    for (Source s : sources) {
      for (MetricSnapshot m : s.registry().scrape()) {
        byName
            .computeIfAbsent(m.getMetadata().getPrometheusName(), n -> new ArrayList<>())
            .add(s.labels().isEmpty() ? m : relabel(m, s.labels()));
      }
    }
    MetricSnapshots.Builder out = MetricSnapshots.builder();
    for (List<MetricSnapshot> family : byName.values()) {
      out.metricSnapshot(family.size() == 1 ? family.get(0) : merge(family));
    }
    return out.build();
  }

  /** One family of the data points of all, when they are of one type; else the first. */
  private static MetricSnapshot merge(List<MetricSnapshot> family) {
    MetricSnapshot first = family.get(0);
    for (MetricSnapshot m : family) {
      if (m.getClass() != first.getClass()) {
        return first;
      }
    }
    Set<Labels> seen = new HashSet<>();
    List<DataPointSnapshot> points = new ArrayList<>();
    for (MetricSnapshot m : family) {
      for (DataPointSnapshot p : m.getDataPoints()) {
        if (seen.add(p.getLabels())) {
          points.add(p);
        }
      }
    }
    return rebuild(first, points);
  }

  private static MetricSnapshot relabel(MetricSnapshot m, Labels extra) {
    List<DataPointSnapshot> points = new ArrayList<>();
    for (DataPointSnapshot p : m.getDataPoints()) {
      Labels merged;
      try {
        merged = p.getLabels().merge(extra);
      } catch (IllegalArgumentException e) {
        merged = p.getLabels(); // the component already set that label itself
      }
      points.add(withLabels(p, merged));
    }
    return rebuild(m, points);
  }

  @SuppressWarnings("unchecked")
  private static MetricSnapshot rebuild(MetricSnapshot m, List<? extends DataPointSnapshot> p) {
    return switch (m) {
      case CounterSnapshot c ->
          new CounterSnapshot(c.getMetadata(), (List<CounterDataPointSnapshot>) p);
      case GaugeSnapshot g -> new GaugeSnapshot(g.getMetadata(), (List<GaugeDataPointSnapshot>) p);
      case HistogramSnapshot h ->
          new HistogramSnapshot(
              h.isGaugeHistogram(), h.getMetadata(), (List<HistogramDataPointSnapshot>) p);
      case SummarySnapshot s ->
          new SummarySnapshot(s.getMetadata(), (List<SummaryDataPointSnapshot>) p);
      // Info, state set and unknown families are not relabelled (no component has any per node).
      default -> m;
    };
  }

  private static DataPointSnapshot withLabels(DataPointSnapshot p, Labels labels) {
    return switch (p) {
      case CounterDataPointSnapshot c ->
          new CounterDataPointSnapshot(
              c.getValue(),
              labels,
              c.getExemplar(),
              c.getCreatedTimestampMillis(),
              c.getScrapeTimestampMillis());
      case GaugeDataPointSnapshot g ->
          new GaugeDataPointSnapshot(
              g.getValue(), labels, g.getExemplar(), g.getScrapeTimestampMillis());
      case HistogramDataPointSnapshot h ->
          new HistogramDataPointSnapshot(
              h.getClassicBuckets(),
              h.getNativeSchema(),
              h.getNativeZeroCount(),
              h.getNativeZeroThreshold(),
              h.getNativeBucketsForPositiveValues(),
              h.getNativeBucketsForNegativeValues(),
              h.getSum(),
              labels,
              h.getExemplars(),
              h.getCreatedTimestampMillis(),
              h.getScrapeTimestampMillis());
      case SummaryDataPointSnapshot s ->
          new SummaryDataPointSnapshot(
              s.getCount(),
              s.getSum(),
              s.getQuantiles(),
              labels,
              s.getExemplars(),
              s.getCreatedTimestampMillis(),
              s.getScrapeTimestampMillis());
      default -> p;
    };
  }
}
