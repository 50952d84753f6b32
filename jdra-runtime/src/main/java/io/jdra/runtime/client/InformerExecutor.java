package io.jdra.runtime.client;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The executor of informers' watches and event handlers: a task handed in by one of its own threads
 * runs on that thread once the task it is running returns, instead of on another pool thread.
 *
 * <p>fabric8 moves each watch event through three serial executors over the client's pool: the
 * watch decodes the event, then calls the informer's watcher (store and indexes), which hands the
 * notification to the shared processor, which calls the handlers; each hand-off ends one pool task
 * and starts the next on another thread, woken for it. In a loaded process (everything of {@code
 * jdra bench} in one JVM on two cores) those hand-offs were a fifth of the informer threads' CPU,
 * and each woken thread started on caches the rest of the process had just used: decoding an event
 * cost 3-5 times what it costs in a loop ({@code WatchDecodeProbe}), as it does in a loop that
 * evicts the caches between events ({@code ColdDecodeProbe}). Here an event goes from decoding to
 * the handlers on one thread, and so does the next event of the same watch when it is already
 * there. Tasks from other threads (the HTTP client's, which deliver the events) go to a pool as
 * fabric8's default executor does, so different watches still run in parallel.
 *
 * <p>What a task hands in waits until that task returns: a task must not wait for what it hands in.
 * fabric8's serial executors hand in the next task only when the current one ends, and the shared
 * processor's hand-off is the watcher's last step. Handlers run on these threads as on fabric8's
 * and must not block on work of the same informers (which they cannot do with fabric8's pool
 * either, where one slow handler holds back every later event of its informer).
 */
public final class InformerExecutor implements Executor {
  private static final AtomicInteger POOLS = new AtomicInteger();

  /** The tasks handed in by the task this thread runs, and whose executor it runs for. */
  private static final ThreadLocal<Pending> PENDING = new ThreadLocal<>();

  private record Pending(InformerExecutor owner, ArrayDeque<Runnable> tasks) {}

  private final ExecutorService pool;

  /** Threads named {@code informer-pool-N-thread-M}, daemons, kept 60 s when idle. */
  public InformerExecutor() {
    int n = POOLS.incrementAndGet();
    AtomicInteger threads = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            0,
            Integer.MAX_VALUE,
            60,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            r -> {
              Thread t =
                  new Thread(r, "informer-pool-" + n + "-thread-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  @Override
  public void execute(Runnable task) {
    Pending pending = PENDING.get();
    if (pending != null && pending.owner() == this) {
      pending.tasks().add(task);
      return;
    }
    pool.execute(() -> runFrom(task));
  }

  /** Runs {@code first}, then what it and its successors handed in, in order. */
  private void runFrom(Runnable first) {
    Pending pending = new Pending(this, new ArrayDeque<>());
    PENDING.set(pending);
    try {
      for (Runnable task = first; task != null; task = pending.tasks().poll()) {
        runReporting(task);
      }
    } finally {
      PENDING.remove();
    }
  }

  /**
   * A failing task is reported as a pool thread reports it, and the tasks handed in after it still
   * run (they were accepted).
   */
  private static void runReporting(Runnable task) {
    try {
      task.run();
    } catch (Throwable t) {
      Thread self = Thread.currentThread();
      self.getUncaughtExceptionHandler().uncaughtException(self, t);
    }
  }

  /** Stops the pool's threads once their tasks end; tasks handed in later are refused. */
  public void shutdown() {
    pool.shutdown();
  }
}
