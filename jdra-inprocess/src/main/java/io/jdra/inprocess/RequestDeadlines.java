package io.jdra.inprocess;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Fails in-process requests that got no answer in time, with the {@link TimeoutException} fabric8's
 * own request timeout gives. fabric8 times every request with a task on its shared scheduler and
 * cancels that task when the answer comes, building two exceptions with stack traces per request (a
 * tenth of the clients' CPU in memory); here adding a request is one compare-and-set, an answer
 * costs nothing, and one daemon thread for the process looks at the requests in flight every {@link
 * #TICK_NANOS} while there are some (parked otherwise), so a request fails at most one tick after
 * its deadline, never before it.
 *
 * <p>Thread-safe: any thread adds; one thread (the sweeper, or a test calling {@link #sweep})
 * sweeps.
 */
final class RequestDeadlines {
  /** How often the requests in flight are looked at. */
  static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private static final VarHandle ADDED;

  static {
    try {
      ADDED = MethodHandles.lookup().findVarHandle(RequestDeadlines.class, "added", Deadline.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** A request in flight that can be failed. */
  interface Timed {
    /** Whether the answer came (or the request failed otherwise): nothing left to time. */
    boolean answered();

    /** Fails the request with {@code timeout}, unless its answer came first. */
    void expire(TimeoutException timeout);
  }

  /** One timed request; {@link #clear} lets its request go as soon as the answer comes. */
  static final class Deadline {
    private final long at;
    private Timed request;
    private Deadline next;

    private Deadline(Timed request, long at) {
      this.request = request;
      this.at = at;
    }

    /**
     * The answer came: the request need not be kept until the next sweep. A plain write: a sweep
     * that does not see it asks the request, which knows.
     */
    void clear() {
      request = null;
    }
  }

  /** The process's sweeper, started on first use. */
  static RequestDeadlines shared() {
    return Shared.INSTANCE;
  }

  private static final class Shared {
    static final RequestDeadlines INSTANCE = new RequestDeadlines(true);
  }

  /** The exceptions this class failed requests with, to tell them from any other timeout. */
  private static final Set<TimeoutException> EXPIRIES =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  /** Deadlines added since the last sweep, newest first (a lock-free stack). */
  @SuppressWarnings("unused") // through ADDED
  private volatile Deadline added;

  /** Whether the sweeper has nothing to time and parks until a request is added. */
  private volatile boolean idle;

  /** Deadlines taken from {@link #added}, not yet answered nor expired; the sweeper's own. */
  private final List<Deadline> pending = new ArrayList<>();

  private final Thread sweeper;

  /**
   * @param withSweeper whether a daemon thread sweeps; without one (tests), {@link #sweep} does
   */
  RequestDeadlines(boolean withSweeper) {
    this.sweeper =
        withSweeper
            ? Thread.ofPlatform().daemon().name("jdra-inprocess-timeouts").unstarted(this::run)
            : null;
    if (sweeper != null) {
      sweeper.start();
    }
  }

  /** Whether {@code t} is a timeout of this class (not one an interceptor's own request met). */
  static boolean isExpiry(Throwable t) {
    return t instanceof TimeoutException e && EXPIRIES.contains(e);
  }

  /** Times {@code request}: it fails if not answered {@code timeoutNanos} from now. */
  Deadline add(Timed request, long timeoutNanos) {
    Deadline d = new Deadline(request, System.nanoTime() + timeoutNanos);
    Deadline head;
    do {
      head = (Deadline) ADDED.getVolatile(this);
      d.next = head;
    } while (!ADDED.compareAndSet(this, head, d));
    // After the push: a sweeper that went idle before it saw the push is woken here (it publishes
    // idle before it looks at added once more).
    if (idle && sweeper != null) {
      LockSupport.unpark(sweeper);
    }
    return d;
  }

  /**
   * Takes the added deadlines, forgets answered requests and fails those whose deadline is not
   * after {@code now}; returns how many remain in flight.
   */
  int sweep(long now) {
    for (Deadline d = (Deadline) ADDED.getAndSet(this, null); d != null; ) {
      Deadline next = d.next;
      d.next = null;
      pending.add(d);
      d = next;
    }
    List<Timed> expired = new ArrayList<>(0);
    pending.removeIf(d -> {
      Timed r = d.request;
      if (r == null || r.answered()) {
        return true;
      }
      if (now - d.at >= 0) {
        expired.add(r);
        return true;
      }
      return false;
    });
    // fabric8's completions run here as they ran on its scheduler's thread; after the sweep, so a
    // completion that sends a new request adds it for the next one.
    for (Timed r : expired) {
      TimeoutException timeout = new TimeoutException();
      EXPIRIES.add(timeout);
      try {
        r.expire(timeout);
      } catch (RuntimeException e) {
        // One completion's failure must not keep the other requests from failing.
        Thread t = Thread.currentThread();
        t.getUncaughtExceptionHandler().uncaughtException(t, e);
      }
    }
    return pending.size();
  }

  private void run() {
    while (true) {
      if (sweep(System.nanoTime()) > 0) {
        LockSupport.parkNanos(this, TICK_NANOS);
        continue;
      }
      idle = true;
      if (ADDED.getVolatile(this) == null) {
        LockSupport.park(this);
      }
      idle = false;
    }
  }
}
