package io.jdra.cli.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * SchedulingThroughput as scheduler_perf's throughput collector reports it: pods scheduled per
 * second, sampled each second from the first second in which a pod got scheduled; the average is
 * the mean of the samples, the percentiles are taken over the sorted samples.
 *
 * @param samples pods/s of each interval
 */
public record Throughput(double[] samples) {
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
    private final AtomicInteger boundCount = new AtomicInteger();

    void created(String uid, long nanos) {
      created.put(uid, nanos);
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

    synchronized boolean awaitBound(int n, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (boundCount.get() < n) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        wait(Math.max(1, left / 1_000_000));
      }
      return true;
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
    private final String label;
    private final List<Double> samples = new ArrayList<>();
    private volatile boolean stopped;
    private Thread thread;

    Sampler(Tracker tracker, PrintWriter progress, String label) {
      this.tracker = tracker;
      this.progress = progress;
      this.label = label;
    }

    void start() {
      thread = Thread.ofPlatform().name("bench-sampler").daemon().start(this::loop);
    }

    private void loop() {
      long last = System.nanoTime();
      int lastCount = 0;
      while (!stopped) {
        try {
          Thread.sleep(1000);
        } catch (InterruptedException e) {
          break;
        }
        long now = System.nanoTime();
        int count = tracker.boundCount();
        record(count - lastCount, now - last);
        progress.printf(
            "%s: %d pods scheduled, %.0f pods/s%n",
            label, count, (count - lastCount) / ((now - last) / 1e9));
        progress.flush();
        last = now;
        lastCount = count;
      }
      long now = System.nanoTime();
      int count = tracker.boundCount();
      // The last, partial interval counts with its real length, as upstream's collector does.
      if (count > lastCount && now - last > 50_000_000L) {
        record(count - lastCount, now - last);
      }
    }

    private synchronized void record(int pods, long nanos) {
      if (samples.isEmpty() && pods == 0) {
        return; // nothing scheduled yet: the measurement starts with the first scheduled pod
      }
      samples.add(pods / (nanos / 1e9));
    }

    Throughput stop() throws InterruptedException {
      stopped = true;
      thread.interrupt();
      thread.join();
      synchronized (this) {
        return new Throughput(samples.stream().mapToDouble(Double::doubleValue).toArray());
      }
    }
  }
}
