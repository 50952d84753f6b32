package io.jdra.runtime.record;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.logging.Klog;
import io.jdra.runtime.logging.Logger;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The recorder's API writes, run concurrently as upstream's broadcaster runs each on a goroutine of
 * its own: one writer thread fell behind a scheduler's burst (a tenth of the pods had their event
 * while the burst lasted).
 *
 * <ul>
 *   <li>The writes of one event object (namespace and name) run one after the other, in the order
 *       submitted, so a series patch never overtakes the create of its event; each object with
 *       writes has a virtual thread of its own while it writes.
 *   <li>At most {@code maxPending} writes are pending (being written, queued behind their object's,
 *       or waiting for a retry); {@link #submit} refuses more and never blocks.
 *   <li>A write that got no answer from the API server (a transport failure) is tried again 10 s
 *       later plus up to 25 % (upstream's {@code wait.Jitter(10s, 0.25)}), 12 attempts in all. The
 *       wait is a timer on the clock, not a sleeping thread; the object's later writes wait behind
 *       it. An answer is final, as upstream's: the HTTP client already retried 429 and 5xx.
 * </ul>
 */
final class EventWriter {
  static final int MAX_TRIES = 12;
  static final Duration RETRY_DELAY = Duration.ofSeconds(10);
  static final double RETRY_JITTER = 0.25;

  /** How long {@link #close} waits for a write it interrupted (it fails at once). */
  private static final Duration INTERRUPTED_GRACE = Duration.ofSeconds(1);

  /** A create (no series) or a series patch; {@code attempt} counts from 1. */
  private record Write(Event event, int attempt) {}

  /** The writes of one event object; the head is being written or waits for its retry. */
  private static final class Chain {
    final String key;
    final ArrayDeque<Write> writes = new ArrayDeque<>();
    Thread thread;
    Clock.Timer retry;

    Chain(String key) {
      this.key = key;
    }
  }

  private final EventSink sink;
  private final Clock clock;
  private final Logger log;
  private final int maxPending;
  private final ThreadFactory threads = Thread.ofVirtual().name("jdra-event-writer-", 0).factory();
  private final Map<String, Chain> chains = new HashMap<>();
  private int pending;
  private long dropped;
  private boolean closed;

  EventWriter(EventSink sink, Clock clock, Logger log, int maxPending) {
    this.sink = sink;
    this.clock = clock;
    this.log = log;
    this.maxPending = maxPending;
  }

  /**
   * Queues a write that may be retried ({@code retry}) or is tried once (the series refreshes, as
   * upstream's). False, and nothing queued, when {@code maxPending} writes are pending or the
   * writer is closed.
   */
  boolean submit(Event event, boolean retry) {
    Write w = new Write(event, retry ? 1 : MAX_TRIES);
    Thread start;
    synchronized (this) {
      if (closed || pending >= maxPending) {
        return false;
      }
      pending++;
      String key = event.getMetadata().getNamespace() + "/" + event.getMetadata().getName();
      Chain c = chains.get(key);
      if (c != null) {
        c.writes.add(w);
        return true;
      }
      Chain fresh = new Chain(key);
      fresh.writes.add(w);
      chains.put(key, fresh);
      start = fresh.thread = threads.newThread(() -> drain(fresh));
    }
    start.start();
    return true;
  }

  /** Writes the chain's writes until none is left or the head waits for a retry. */
  private void drain(Chain c) {
    while (true) {
      Write w;
      synchronized (this) {
        w = c.writes.peek();
      }
      boolean retry = attempt(w);
      synchronized (this) {
        c.writes.poll();
        if (retry && !closed) {
          c.writes.addFirst(new Write(w.event(), w.attempt() + 1));
          c.thread = null;
          c.retry = clock.schedule(retryDelay(), () -> resume(c));
          notifyAll();
          return;
        }
        pending--;
        if (c.writes.isEmpty()) {
          chains.remove(c.key);
          c.thread = null;
          notifyAll();
          return;
        }
      }
    }
  }

  private void resume(Chain c) {
    Thread t;
    synchronized (this) {
      if (c.retry == null) {
        return; // close() dropped the chain
      }
      c.retry = null;
      t = c.thread = threads.newThread(() -> drain(c));
    }
    t.start();
  }

  private static Duration retryDelay() {
    double jitter = 1 + RETRY_JITTER * ThreadLocalRandom.current().nextDouble();
    return Duration.ofNanos((long) (RETRY_DELAY.toNanos() * jitter));
  }

  /** One try of a write; true when it failed and may be tried again. */
  private boolean attempt(Write w) {
    Event ev = w.event();
    try {
      if (ev.getSeries() == null) {
        sink.create(ev);
      } else {
        patchSeries(ev);
      }
      logEvent(ev);
      return false;
    } catch (KubernetesClientException e) {
      if (e.getCode() > 0) {
        log.info(
            "Server rejected event (will not retry!)",
            "event",
            name(ev),
            "code",
            e.getCode(),
            "err",
            e.getMessage());
        return false;
      }
      if (w.attempt() >= MAX_TRIES) {
        log.info("Unable to write event (retry limit exceeded!)", "event", name(ev));
        return false;
      }
      log.info("Unable to write event (may retry after sleeping)", "event", name(ev), "err", e);
      return true;
    } catch (RuntimeException e) {
      log.info("Unable to write event (will not retry!)", "event", name(ev), "err", e.toString());
      return false;
    }
  }

  /** Upstream's series update: a patch, or a create (series included) when the event is gone. */
  private void patchSeries(Event ev) {
    try {
      sink.patch(
          ev,
          "{\"series\":{\"count\":"
              + ev.getSeries().getCount()
              + ",\"lastObservedTime\":\""
              + ev.getSeries().getLastObservedTime().getTime()
              + "\"}}");
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
      sink.create(ev);
    }
  }

  private void logEvent(Event ev) {
    if (!log.enabled()) {
      return;
    }
    ObjectReference r = ev.getRegarding();
    log.info(
        "Event occurred",
        "object",
        Klog.kref(r.getNamespace(), r.getName()),
        "kind",
        r.getKind(),
        "apiVersion",
        r.getApiVersion(),
        "type",
        ev.getType(),
        "reason",
        ev.getReason(),
        "action",
        ev.getAction(),
        "note",
        ev.getNote());
  }

  private static Klog.ObjectRef name(Event ev) {
    return Klog.kref(ev.getMetadata().getNamespace(), ev.getMetadata().getName());
  }

  /** Writes pending: being written, queued, or waiting for a retry. */
  synchronized int pending() {
    return pending;
  }

  /** Event objects whose next write waits for its retry. */
  synchronized int waitingForRetry() {
    return (int) chains.values().stream().filter(c -> c.retry != null).count();
  }

  /** Writes dropped by {@link #close} (they waited for a retry). */
  synchronized long dropped() {
    return dropped;
  }

  /**
   * Takes no more writes, drops those waiting for a retry, and waits up to {@code grace} for the
   * others (later ones of an object included); then interrupts what is still writing.
   */
  void close(Duration grace) {
    List<Thread> left = new ArrayList<>();
    synchronized (this) {
      closed = true;
      dropRetries();
      long deadline = System.nanoTime() + grace.toNanos();
      long wait;
      while (!chains.isEmpty() && (wait = deadline - System.nanoTime()) > 0) {
        try {
          TimeUnit.NANOSECONDS.timedWait(this, wait);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      for (Chain c : chains.values()) {
        if (c.thread != null) {
          left.add(c.thread);
        }
      }
    }
    left.forEach(Thread::interrupt);
    for (Thread t : left) {
      try {
        t.join(INTERRUPTED_GRACE.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void dropRetries() {
    for (Iterator<Chain> it = chains.values().iterator(); it.hasNext(); ) {
      Chain c = it.next();
      if (c.retry != null) {
        c.retry.cancel();
        c.retry = null;
        pending -= c.writes.size();
        dropped += c.writes.size();
        log.info(
            "Event not written, the recorder is closed", "event", name(c.writes.peek().event()));
        it.remove();
      }
    }
  }
}
