package io.jdra.cli.bench;

import java.util.Arrays;

/** Percentiles as scheduler_perf computes them: the sorted sample at ceil(n*p/100)-1. */
final class Percentiles {
  private Percentiles() {}

  static double of(double[] values, int p) {
    if (values.length == 0) {
      return 0;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int i = (int) Math.ceil(sorted.length * p / 100.0) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }
}
