package io.jdra.cli.bench;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * SchedulingThroughput as scheduler_perf's throughput collector reports it: pods scheduled per
 * second, sampled each second from the first second in which a pod got scheduled; the average is
 * the mean of the samples, the percentiles are taken over the sorted samples. The timeline keeps
 * every second (also those before the first bind) for the report's plots.
 *
 * @param samples pods/s of each interval counted by upstream's rules
 * @param timeline one point a second from the start of the measurement
 */
public record Throughput(double[] samples, List<Point> timeline) {
  /**
   * One sample of the timeline.
   *
   * @param seconds since the measurement started
   * @param podsPerSecond pods bound in the interval ending here, per second
   * @param scheduled measured pods bound so far
   * @param pending measured pods created and not yet bound
   */
  public record Point(double seconds, double podsPerSecond, int scheduled, int pending) {}

  double average() {
    return samples.length == 0 ? 0 : Arrays.stream(samples).sum() / samples.length;
  }

  double percentile(int p) {
    return Percentiles.of(samples, p);
  }

  /** Creation and bind times of the measured pods. */
  static final class Tracker {
    private final Map<String, Long> created = new ConcurrentHashMap<>();
    private final Map<String, Long> bound = new ConcurrentHashMap<>();
    private final AtomicInteger createdCount = new AtomicInteger();
    private final AtomicInteger boundCount = new AtomicInteger();

    void created(String uid, long nanos) {
      if (created.putIfAbsent(uid, nanos) == null) {
        createdCount.incrementAndGet();
      }
    }

    void bound(String uid, long nanos) {
      if (bound.putIfAbsent(uid, nanos) == null) {
        synchronized (this) {
          boundCount.incrementAndGet();
          notifyAll();
        }
      }
    }

    int boundCount() {
      return boundCount.get();
    }

    int pending() {
      return Math.max(0, createdCount.get() - boundCount.get());
    }

    /** Create-to-bound latency of each pod (create call start to the bind seen by a watch). */
    double[] latenciesMillis() {
      List<Double> out = new ArrayList<>();
      bound.forEach((uid, b) -> {
        Long c = created.get(uid);
        if (c != null) {
          out.add((b - c) / 1e6);
        }
      });
      return out.stream().mapToDouble(Double::doubleValue).toArray();
    }
  }

  /** Samples the tracker each second on its own thread and prints the progress line. */
  static final class Sampler {
    private final Tracker tracker;
    private final PrintWriter progress;
    private final List<Double> samples = new ArrayList<>();
    private final List<Point> timeline = new ArrayList<>();
    private volatile boolean stopped;
    private Thread thread;
    private long start;

    Sampler(Tracker tracker, PrintWriter progress) {
      this.tracker = tracker;
      this.progress = progress;
    }

    void start() {
      start = System.nanoTime();
      timeline.add(new Point(0, 0, tracker.boundCount(), tracker.pending()));
      thread = Thread.ofPlatform().name("bench-sampler").daemon().start(this::loop);
    }

    private void loop() {
      long last = start;
      int lastCount = 0;
      while (!stopped) {
        try {
          Thread.sleep(1000);
        } catch (InterruptedException e) {
          break;
        }
        long now = System.nanoTime();
        int count = tracker.boundCount();
        double rate = record(count - lastCount, now - last, now, count);
        progress.printf(
            "%5.0fs  %6d pods scheduled  %6d pending  %7.1f pods/s%n",
            (now - start) / 1e9, count, tracker.pending(), rate);
        progress.flush();
        last = now;
        lastCount = count;
      }
      long now = System.nanoTime();
      int count = tracker.boundCount();
      // The last, partial interval counts with its real length, as upstream's collector does.
      if (count > lastCount && now - last > 50_000_000L) {
        record(count - lastCount, now - last, now, count);
      }
    }

    private synchronized double record(int pods, long nanos, long now, int count) {
      double rate = pods / (nanos / 1e9);
      timeline.add(new Point((now - start) / 1e9, rate, count, tracker.pending()));
      if (!samples.isEmpty() || pods > 0) {
        samples.add(rate); // the measurement starts with the first scheduled pod
      }
      return rate;
    }

    Throughput stop() throws InterruptedException {
      stopped = true;
      thread.interrupt();
      thread.join();
      synchronized (this) {
        return new Throughput(
            samples.stream().mapToDouble(Double::doubleValue).toArray(), List.copyOf(timeline));
      }
    }
  }
}
