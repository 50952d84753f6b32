package io.jdra.cli.bench;

import java.util.Locale;

/**
 * How many runs of a workload come before the measured ones, in the same JVM: a fixed number, or
 * {@code auto}: until the JIT compilers are done with the workload's paths. On two slow cores C2
 * can still be compiling after four runs of a steady-state workload (1 to 1.4 ms of a 4.3 ms pod),
 * and how many runs it needs depends on the machine and its load, so a fixed number either wastes
 * runs or measures the compiler. {@code auto} stops warming up after the first run whose JIT
 * compiler threads took at most {@link #AUTO_JIT_SHARE} of the process's CPU during its measured
 * phase, and after {@link #AUTO_MAX_RUNS} runs in any case.
 *
 * @param runs the fixed number of runs, or with {@code auto} the most it may run
 * @param auto whether the runs stop once the JIT's share is small
 */
public record Warmup(int runs, boolean auto) {
  /** The JIT compilers' share of a run's CPU below which {@code auto} stops warming up. */
  public static final double AUTO_JIT_SHARE = 0.03;

  /** The most warm-up runs {@code auto} makes. */
  public static final int AUTO_MAX_RUNS = 20;

  /** Warm-up runs when a run's JIT share is unknown (no per-thread CPU off Linux). */
  static final int AUTO_WITHOUT_THREAD_CPU = 5;

  public Warmup {
    if (runs < 0) {
      throw new IllegalArgumentException("must be >= 0, got " + runs);
    }
  }

  /** {@code N} (a number >= 0), {@code auto}, or {@code auto:MAX} (auto, at most MAX runs). */
  public static Warmup parse(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("auto")) {
      return new Warmup(AUTO_MAX_RUNS, true);
    }
    boolean auto = v.startsWith("auto:");
    try {
      return new Warmup(Integer.parseInt(auto ? v.substring(5) : v), auto);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "must be a number >= 0, 'auto' or 'auto:MAX', got '" + value + "'");
    }
  }

  /**
   * Whether another warm-up run is due after {@code done} runs, the last of which had the JIT share
   * {@code lastJitShare} (NaN if unknown; ignored before the first run).
   */
  public boolean another(int done, double lastJitShare) {
    if (done >= runs) {
      return false;
    }
    if (!auto || done == 0) {
      return true;
    }
    if (Double.isNaN(lastJitShare)) {
      return done < AUTO_WITHOUT_THREAD_CPU;
    }
    return lastJitShare > AUTO_JIT_SHARE;
  }

  /** The progress label of warm-up run {@code i}: "3/4", or "3" with auto. */
  public String label(int i) {
    return auto ? String.valueOf(i) : i + "/" + runs;
  }

  /** A share as a percentage for progress lines. */
  public static String percent(double share) {
    return Double.isNaN(share) ? "unknown" : String.format(Locale.ROOT, "%.1f %%", share * 100);
  }
}
