package io.jdra.runtime;

import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.logging.Logger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

/**
 * What Go's {@code context.Context} carries for a Kubernetes component: cancellation, a contextual
 * {@link Logger} and a {@link Clock}. Passed explicitly to every blocking or long-running call.
 *
 * <p>Immutable: {@code withValues}, {@code withLogger}, {@code withClock} return children that
 * share this context's cancellation; {@link #withCancel()} returns a child with its own
 * cancellation, cancelled when its parent is or by its own {@link #cancel()}. Cancelling never
 * affects parents. {@link #background} contexts can be cancelled too (the process's root context is
 * cancelled on SIGTERM).
 *
 * <p>Cancellation callbacks ({@link #onCancel}) run once, on the thread that cancels, in
 * registration order, children before their parents' later callbacks. Thread-safe.
 */
public final class Ctx {
  private final Logger logger;
  private final Clock clock;
  private final Cancellation cancellation;

  private Ctx(Logger logger, Clock clock, Cancellation cancellation) {
    this.logger = logger;
    this.clock = clock;
    this.cancellation = cancellation;
  }

  /** A root context with a logger named after the component and the system clock. */
  public static Ctx background(String componentName) {
    return new Ctx(Logger.named(componentName), Clock.system(), new Cancellation());
  }

  /** A root context for tests: given clock, discarding logger. */
  public static Ctx forTest(Clock clock) {
    return new Ctx(Logger.discard(), clock, new Cancellation());
  }

  public Logger logger() {
    return logger;
  }

  public Clock clock() {
    return clock;
  }

  public Ctx withLogger(Logger l) {
    return new Ctx(l, clock, cancellation);
  }

  /** A child whose logger adds these key/value pairs (klog.LoggerWithValues). */
  public Ctx withValues(Object... kv) {
    return new Ctx(logger.withValues(kv), clock, cancellation);
  }

  /** A child whose logger has this name appended (klog.LoggerWithName). */
  public Ctx withName(String name) {
    return new Ctx(logger.withName(name), clock, cancellation);
  }

  public Ctx withClock(Clock c) {
    return new Ctx(logger, c, cancellation);
  }

  /** A child that is cancelled with this context or by its own {@link #cancel()}. */
  public Ctx withCancel() {
    Cancellation child = new Cancellation();
    Registration r = cancellation.register(child::cancel);
    // A cancelled child no longer needs to hear about its parent.
    child.register(r::close);
    return new Ctx(logger, clock, child);
  }

  /**
   * A child cancelled like {@link #withCancel()} and also when {@code timeout} has passed on this
   * context's clock (Go's {@code context.WithTimeout}); the timer is dropped when the child is
   * cancelled earlier.
   */
  public Ctx withTimeout(Duration timeout) {
    Ctx child = withCancel();
    Clock.Timer timer = clock.schedule(timeout, child::cancel);
    child.onCancel(timer::cancel);
    return child;
  }

  /** Cancels this context (and the contexts derived from it). Idempotent. */
  public void cancel() {
    cancellation.cancel();
  }

  public boolean isCancelled() {
    return cancellation.isCancelled();
  }

  /**
   * Runs {@code callback} when this context is cancelled, or at once (on this thread) if it already
   * is. Close the returned registration to drop the callback.
   */
  public Registration onCancel(Runnable callback) {
    return cancellation.register(callback);
  }

  /** A future completed when this context is cancelled; completing it does nothing. */
  public CompletableFuture<Void> done() {
    return cancellation.done.copy();
  }

  /**
   * Waits {@code d} on this context's clock. Returns true if the time passed, false as soon as the
   * context is cancelled. For real-time loops only; unit tests step a FakeClock instead.
   */
  public boolean sleep(Duration d) throws InterruptedException {
    CountDownLatch latch = new CountDownLatch(1);
    Clock.Timer timer = clock.schedule(d, latch::countDown);
    try (Registration r = onCancel(latch::countDown)) {
      latch.await();
    } finally {
      timer.cancel();
    }
    return !isCancelled();
  }

  /** A registration that can be undone; closing twice is harmless. */
  @FunctionalInterface
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }

  private static final class Cancellation {
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private Set<Runnable> callbacks = new LinkedHashSet<>();

    Registration register(Runnable callback) {
      // A wrapper gives each registration its own identity, even for the same Runnable.
      Runnable entry = callback::run;
      synchronized (this) {
        if (callbacks != null) {
          callbacks.add(entry);
          return () -> {
            synchronized (Cancellation.this) {
              if (callbacks != null) {
                callbacks.remove(entry);
              }
            }
          };
        }
      }
      callback.run();
      return () -> {};
    }

    void cancel() {
      List<Runnable> toRun;
      synchronized (this) {
        if (callbacks == null) {
          return;
        }
        toRun = new ArrayList<>(callbacks);
        callbacks = null;
      }
      done.complete(null);
      for (Runnable r : toRun) {
        r.run();
      }
    }

    synchronized boolean isCancelled() {
      return callbacks == null;
    }
  }
}
