package io.jdra.cli.htmlreport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * A line chart rendered as inline SVG: one or more series of (x, y) points over shared axes with
 * rounded ticks, a legend, and labels formatted by the caller (durations, percentages, ...).
 * Immutable once built; {@link #svg()} is pure.
 */
public final class LineChart {
  /** One line: its name in the legend and its points, in x order. */
  public record Series(String name, double[] x, double[] y) {
    public Series {
      if (x.length != y.length) {
        throw new IllegalArgumentException("series " + name + ": x and y differ in length");
      }
    }
  }

  private static final String[] COLORS = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"
  };
  private static final int W = 860;
  private static final int H = 280;
  private static final int LEFT = 64;
  private static final int RIGHT = 16;
  private static final int LEGEND_ROW = 16;
  private static final int BOTTOM = 40;

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final List<Series> series;
  private final DoubleFunction<String> xFormat;
  private final DoubleFunction<String> yFormat;
  private final Double yMax;
  private final boolean steps;
  private final boolean timeAxis;

  private LineChart(Builder b) {
    this.title = b.title;
    this.xLabel = b.xLabel;
    this.yLabel = b.yLabel;
    this.series = List.copyOf(b.series);
    this.xFormat = b.xFormat;
    this.yFormat = b.yFormat;
    this.yMax = b.yMax;
    this.steps = b.steps;
    this.timeAxis = b.timeAxis;
  }

  public static Builder builder(String title) {
    return new Builder(title);
  }

  /** Builds a chart. */
  public static final class Builder {
    private final String title;
    private String xLabel = "";
    private String yLabel = "";
    private final List<Series> series = new ArrayList<>();
    private DoubleFunction<String> xFormat = LineChart::number;
    private DoubleFunction<String> yFormat = LineChart::number;
    private Double yMax;
    private boolean steps;
    private boolean timeAxis;

    private Builder(String title) {
      this.title = title;
    }

    public Builder axes(String x, String y) {
      this.xLabel = x;
      this.yLabel = y;
      return this;
    }

    public Builder series(String name, double[] x, double[] y) {
      series.add(new Series(name, x, y));
      return this;
    }

    public Builder xFormat(DoubleFunction<String> f) {
      this.xFormat = f;
      return this;
    }

    public Builder yFormat(DoubleFunction<String> f) {
      this.yFormat = f;
      return this;
    }

    /** A fixed top of the y axis (e.g. 1 for ratios); otherwise a rounded maximum of the data. */
    public Builder yMax(double max) {
      this.yMax = max;
      return this;
    }

    /** Draw as steps (a value holds until the next point), for counts sampled at events. */
    public Builder steps() {
      this.steps = true;
      return this;
    }

    /** x is seconds: ticks at round durations (1m, 5m, 1h, ...) labelled like {@code 1h30m}. */
    public Builder timeAxis() {
      this.timeAxis = true;
      this.xFormat = LineChart::duration;
      return this;
    }

    public LineChart build() {
      return new LineChart(this);
    }
  }

  public String title() {
    return title;
  }

  /** The chart as an {@code <svg>} element. */
  public String svg() {
    double x0 = Double.POSITIVE_INFINITY;
    double x1 = Double.NEGATIVE_INFINITY;
    double ymax = 0;
    for (Series s : series) {
      for (int i = 0; i < s.x().length; i++) {
        x0 = Math.min(x0, s.x()[i]);
        x1 = Math.max(x1, s.x()[i]);
        ymax = Math.max(ymax, s.y()[i]);
      }
    }
    if (x0 > x1) {
      x0 = 0;
      x1 = 1;
    }
    if (x1 == x0) {
      x1 = x0 + 1;
    }
    double[] yTicks = ticks(0, yMax != null ? yMax : ymax == 0 ? 1 : ymax);
    double yTop = yMax != null ? yMax : yTicks[yTicks.length - 1];
    double[] xTicks = timeAxis ? timeTicks(x0, x1) : ticks(x0, x1);
    // The legend sits above the plot, four entries a row, so it never hides a line.
    int top = 8 + LEGEND_ROW * ((series.size() + 3) / 4);
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\""
                + " height=\"%d\" role=\"img\" aria-label=\"%s\">",
            W,
            H + top,
            W,
            H + top,
            Html.esc(title)));
    int pw = W - LEFT - RIGHT;
    int ph = H - BOTTOM;
    sb.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"#999\"/>",
            LEFT,
            top,
            pw,
            ph));
    for (double t : yTicks) {
      if (t > yTop + 1e-12) {
        continue;
      }
      double y = top + ph - t / yTop * ph;
      sb.append(line(LEFT, y, LEFT + pw, y, "#e5e5e5"));
      sb.append(text(LEFT - 6, y + 4, "end", yFormat.apply(t)));
    }
    for (double t : xTicks) {
      if (t < x0 - 1e-9 || t > x1 + 1e-9) {
        continue;
      }
      double x = LEFT + (t - x0) / (x1 - x0) * pw;
      sb.append(line(x, top, x, top + ph, "#f0f0f0"));
      sb.append(text(x, top + ph + 16, "middle", xFormat.apply(t)));
    }
    sb.append(text(LEFT + pw / 2.0, top + H - 4, "middle", xLabel));
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"12\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\""
                + " transform=\"rotate(-90 12 %.1f)\">%s</text>",
            top + ph / 2.0,
            top + ph / 2.0,
            Html.esc(yLabel)));
    for (int k = 0; k < series.size(); k++) {
      Series s = series.get(k);
      String color = COLORS[k % COLORS.length];
      StringBuilder pts = new StringBuilder();
      for (int i = 0; i < s.x().length; i++) {
        double x = LEFT + (s.x()[i] - x0) / (x1 - x0) * pw;
        double y = top + ph - Math.min(s.y()[i], yTop) / yTop * ph;
        if (steps && i > 0) {
          double py = top + ph - Math.min(s.y()[i - 1], yTop) / yTop * ph;
          pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, py));
        }
        pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>",
              color,
              pts.toString().trim()));
      double lx = LEFT + (k % 4) * 200;
      double ly = 14 + (k / 4) * LEGEND_ROW;
      sb.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"4\" fill=\"%s\"/>",
              lx,
              ly - 5,
              color));
      sb.append(text(lx + 16, ly, "start", s.name()));
    }
    sb.append("</svg>");
    return sb.toString();
  }

  private static String line(double x1, double y1, double x2, double y2, String color) {
    return String.format(
        Locale.ROOT,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>",
        x1,
        y1,
        x2,
        y2,
        color);
  }

  private static String text(double x, double y, String anchor, String s) {
    return String.format(
        Locale.ROOT,
        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"%s\">%s</text>",
        x,
        y,
        anchor,
        Html.esc(s));
  }

  /** About five round ticks (1, 2 or 5 times a power of ten) covering lo..hi. */
  static double[] ticks(double lo, double hi) {
    double span = hi - lo;
    double raw = span / 5;
    double mag = Math.pow(10, Math.floor(Math.log10(raw)));
    double step = mag;
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * mag >= raw) {
        step = m * mag;
        break;
      }
    }
    double start = Math.floor(lo / step) * step;
    List<Double> out = new ArrayList<>();
    for (double t = start; t <= hi + step * 0.999; t += step) {
      out.add(Math.round(t / step) * step);
      if (out.size() > 50) {
        break;
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** About five ticks at round durations covering lo..hi seconds. */
  static double[] timeTicks(double lo, double hi) {
    double raw = (hi - lo) / 5;
    double step = 0;
    for (double s :
        new double[] {
          1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400
        }) {
      if (s >= raw) {
        step = s;
        break;
      }
    }
    if (step == 0) {
      step = Math.ceil(raw / 86400) * 86400;
    }
    List<Double> out = new ArrayList<>();
    for (double t = Math.floor(lo / step) * step; t <= hi + 1e-9; t += step) {
      out.add(t);
    }
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** Seconds as {@code 1h30m}, {@code 45s}, {@code 2d}. */
  public static String duration(double seconds) {
    long s = Math.round(seconds);
    if (s == 0) {
      return "0";
    }
    StringBuilder sb = new StringBuilder();
    long d = s / 86400;
    long h = s / 3600 % 24;
    long m = s / 60 % 60;
    long sec = s % 60;
    if (d > 0) {
      sb.append(d).append('d');
    }
    if (h > 0) {
      sb.append(h).append('h');
    }
    if (m > 0) {
      sb.append(m).append('m');
    }
    if (sec > 0) {
      sb.append(sec).append('s');
    }
    return sb.toString();
  }

  static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%.3g", v);
  }
}
