package io.jdra.runtime.logging;

/**
 * The process-wide klog verbosity ({@code -v N}). The CLI sets it once after parsing flags; {@link
 * Logger#v(int)} loggers log only when it is at least their level. Default 0.
 */
public final class Verbosity {
  private static volatile int level;

  private Verbosity() {}

  /** Sets the verbosity; negative values are refused. */
  public static void set(int v) {
    if (v < 0) {
      throw new IllegalArgumentException("verbosity must be >= 0, got " + v);
    }
    level = v;
  }

  public static int get() {
    return level;
  }

  /** Whether messages of this V-level are written. */
  public static boolean enabled(int v) {
    return level >= v;
  }
}
