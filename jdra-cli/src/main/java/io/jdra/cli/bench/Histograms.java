package io.jdra.cli.bench;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.Map;
import java.util.TreeMap;

/**
 * The scheduler's histograms as scheduler_perf's metrics collector reports them: what was observed
 * between two snapshots, per label value, as an average and percentiles estimated from the buckets
 * (linear within a bucket, as Prometheus' histogram_quantile), in milliseconds.
 */
final class Histograms {
  private Histograms() {}

  /** Cumulative bucket counts and sum of one series. */
  record Series(double[] upper, long[] cumulative, double sum) {
    long count() {
      return cumulative.length == 0 ? 0 : cumulative[cumulative.length - 1];
    }

    Series minus(Series before) {
      if (before == null) {
        return this;
      }
      long[] c = cumulative.clone();
      for (int i = 0; i < c.length && i < before.cumulative.length; i++) {
        c[i] -= before.cumulative[i];
      }
      return new Series(upper, c, sum - before.sum);
    }

    /** The p-th percentile (0..100) in the histogram's unit; 0 without observations. */
    double quantile(double p) {
      long n = count();
      if (n == 0) {
        return 0;
      }
      double rank = p / 100 * n;
      long prevCount = 0;
      double prevUpper = 0;
      for (int i = 0; i < upper.length; i++) {
        if (cumulative[i] >= rank) {
          if (Double.isInfinite(upper[i])) {
            return prevUpper; // above the last finite bound: the best estimate is that bound
          }
          long inBucket = cumulative[i] - prevCount;
          double frac = inBucket == 0 ? 1 : (rank - prevCount) / inBucket;
          return prevUpper + (upper[i] - prevUpper) * frac;
        }
        prevCount = cumulative[i];
        prevUpper = upper[i];
      }
      return prevUpper;
    }

    double average() {
      return count() == 0 ? 0 : sum / count();
    }
  }

  /** Every series of histogram {@code name}, keyed by the value of {@code label} ("" if none). */
  static Map<String, Series> snapshot(PrometheusRegistry registry, String name, String label) {
    Map<String, Series> out = new TreeMap<>();
    for (MetricSnapshot s : registry.scrape(n -> n.equals(name))) {
      if (!(s instanceof HistogramSnapshot hs)) {
        continue;
      }
      for (HistogramSnapshot.HistogramDataPointSnapshot d : hs.getDataPoints()) {
        ClassicHistogramBuckets b = d.getClassicBuckets();
        double[] upper = new double[b.size()];
        long[] cum = new long[b.size()];
        long total = 0;
        for (int i = 0; i < b.size(); i++) {
          upper[i] = b.getUpperBound(i);
          total += b.getCount(i); // the model's bucket counts are per bucket, not cumulative
          cum[i] = total;
        }
        out.merge(key(d.getLabels(), label), new Series(upper, cum, d.getSum()), Histograms::add);
      }
    }
    return out;
  }

  /** scheduler_schedule_attempts_total by result. */
  static Map<String, Long> attempts(PrometheusRegistry registry) {
    Map<String, Long> out = new TreeMap<>();
    for (MetricSnapshot s : registry.scrape(n -> n.startsWith("scheduler_schedule_attempts"))) {
      if (s instanceof CounterSnapshot cs) {
        for (CounterSnapshot.CounterDataPointSnapshot d : cs.getDataPoints()) {
          out.merge(key(d.getLabels(), "result"), (long) d.getValue(), Long::sum);
        }
      }
    }
    return out;
  }

  private static String key(Labels labels, String label) {
    String v = label == null ? null : labels.get(label);
    return v == null ? "" : v;
  }

  private static Series add(Series a, Series b) {
    long[] c = a.cumulative.clone();
    for (int i = 0; i < c.length && i < b.cumulative.length; i++) {
      c[i] += b.cumulative[i];
    }
    return new Series(a.upper, c, a.sum + b.sum);
  }
}
