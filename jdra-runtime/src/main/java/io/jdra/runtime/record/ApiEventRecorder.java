package io.jdra.runtime.record;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.api.model.events.v1.EventSeries;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.Clock;
import io.jdra.runtime.logging.Klog;
import io.jdra.runtime.logging.Logger;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The events.k8s.io/v1 recorder and broadcaster of client-go's tools/events, in one class: a worker
 * thread aggregates events in the order recorded, an {@link EventWriter} writes them concurrently.
 */
final class ApiEventRecorder implements EventRecorder {
  static final Duration REFRESH_PERIOD = Duration.ofMinutes(30);
  static final Duration FINISH_TIME = Duration.ofMinutes(6);

  /** How long {@link #close} waits for the writes under way. */
  static final Duration CLOSE_GRACE = Duration.ofSeconds(5);

  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);
  private static final Runnable STOP = () -> {};

  private final EventRecorderOptions options;
  private final Clock clock;
  private final Logger log;
  private final BlockingQueue<Runnable> buffer;
  private final EventWriter writer;
  private final Map<Key, Entry> cache = new HashMap<>();
  private final Set<Clock.Timer> timers = new HashSet<>();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong lastNanos = new AtomicLong();
  private final Thread worker;
  private volatile boolean closed;

  /** What makes two events repeats of each other (upstream's eventKey). */
  private record Key(
      String action,
      String reason,
      String controller,
      ObjectReference regarding,
      ObjectReference related) {}

  /**
   * An event in the cache: the first one as written (never changed, a write may be encoding it) and
   * how often it occurred; from two on it is a series.
   */
  private static final class Entry {
    final Event event;
    int count = 1;
    Instant lastObserved;

    Entry(Event event, Instant now) {
      this.event = event;
      this.lastObserved = now;
    }

    Event withSeries() {
      return new EventBuilder(event)
          .withSeries(new EventSeries(count, microTime(lastObserved)))
          .build();
    }
  }

  ApiEventRecorder(KubernetesClient client, EventRecorderOptions options, Ctx ctx) {
    this(new ApiEventSink(client), options, ctx);
  }

  /** Writes to {@code sink}; at most {@code options.bufferSize()} writes pending. */
  ApiEventRecorder(EventSink sink, EventRecorderOptions options, Ctx ctx) {
    this.options = options;
    this.clock = ctx.clock();
    this.log = ctx.logger().withName("events").v(3);
    this.buffer = new ArrayBlockingQueue<>(options.bufferSize());
    this.writer = new EventWriter(sink, clock, log, options.bufferSize());
    this.worker = Thread.ofPlatform().daemon().name("jdra-event-recorder").start(this::work);
    scheduleLocked(REFRESH_PERIOD, this::refreshTick);
    scheduleLocked(FINISH_TIME, this::finishTick);
  }

  @Override
  public void eventf(
      HasMetadata regarding,
      HasMetadata related,
      String type,
      String reason,
      String action,
      String noteFormat,
      Object... args) {
    offer(
        reference(regarding),
        related == null ? null : reference(related),
        type,
        reason,
        action,
        noteFormat,
        args);
  }

  @Override
  public void eventf(
      ObjectReference regarding,
      String type,
      String reason,
      String action,
      String noteFormat,
      Object... args) {
    offer(regarding, null, type, reason, action, noteFormat, args);
  }

  private void offer(
      ObjectReference regarding,
      ObjectReference related,
      String type,
      String reason,
      String action,
      String noteFormat,
      Object... args) {
    if (!NORMAL.equals(type) && !WARNING.equals(type)) {
      log.info("Unsupported event type, event dropped", "type", type, "reason", reason);
      return;
    }
    String note = args.length == 0 ? noteFormat : String.format(noteFormat, args);
    Event ev = build(regarding, related, type, reason, action, note);
    if (closed || !buffer.offer(() -> record(ev))) {
      dropped.incrementAndGet();
      log.info(
          "Event dropped",
          "object",
          Klog.kref(regarding.getNamespace(), regarding.getName()),
          "reason",
          reason);
    }
  }

  /** Events dropped: the buffer was full, too many writes were pending, or the recorder closed. */
  long dropped() {
    return dropped.get() + writer.dropped();
  }

  /** The writer (tests look at its pending writes and retries). */
  EventWriter writer() {
    return writer;
  }

  private Event build(
      ObjectReference regarding,
      ObjectReference related,
      String type,
      String reason,
      String action,
      String note) {
    Instant now = clock.now();
    String ns = regarding.getNamespace();
    String name = regarding.getName();
    long nanos = uniqueNanos(now.getEpochSecond() * 1_000_000_000L + now.getNano());
    return new EventBuilder()
        .withNewMetadata()
        .withName(name + "." + Long.toHexString(nanos))
        .withNamespace(ns == null || ns.isEmpty() ? "default" : ns)
        .endMetadata()
        .withEventTime(microTime(now))
        .withRegarding(regarding)
        .withRelated(related)
        .withType(type)
        .withReason(reason)
        .withAction(action)
        .withNote(note)
        .withReportingController(options.reportingController())
        .withReportingInstance(options.reportingInstance())
        .build();
  }

  /**
   * Upstream names an event {@code <object>.<unix nanos in hex>}; two events recorded at the same
   * instant (a coarse or fake clock) would collide, so the nanos only ever grow here.
   */
  private long uniqueNanos(long nanos) {
    return lastNanos.accumulateAndGet(nanos, (last, n) -> n > last ? n : last + 1);
  }

  static ObjectReference reference(HasMetadata obj) {
    return new ObjectReferenceBuilder()
        .withApiVersion(obj.getApiVersion())
        .withKind(obj.getKind())
        .withNamespace(obj.getMetadata().getNamespace())
        .withName(obj.getMetadata().getName())
        .withUid(obj.getMetadata().getUid())
        .withResourceVersion(obj.getMetadata().getResourceVersion())
        .build();
  }

  static MicroTime microTime(Instant t) {
    return new MicroTime(MICRO_TIME.format(t));
  }

  private void work() {
    while (true) {
      Runnable task;
      try {
        task = buffer.take();
      } catch (InterruptedException e) {
        return;
      }
      if (task == STOP) {
        return;
      }
      try {
        task.run();
      } catch (RuntimeException e) {
        log.info("Event recorder task failed", "err", e.toString());
      }
    }
  }

  /**
   * Upstream's recordToSink: aggregate into the cache, then hand what is to be written to the
   * writer. Runs on the worker only, so aggregation is in the order events were recorded.
   */
  private void record(Event ev) {
    Key key =
        new Key(
            ev.getAction(),
            ev.getReason(),
            ev.getReportingController(),
            ev.getRegarding(),
            ev.getRelated());
    Entry cached = cache.get(key);
    if (cached == null) {
      cache.put(key, new Entry(ev, clock.now()));
      write(ev, true);
      return;
    }
    cached.lastObserved = clock.now();
    cached.count++;
    if (cached.count == 2) {
      write(cached.withSeries(), true);
    }
  }

  private void write(Event ev, boolean retry) {
    if (!writer.submit(ev, retry)) {
      dropped.incrementAndGet();
      log.info("Event dropped, too many writes pending", "event", Klog.kref(ns(ev), name(ev)));
    }
  }

  private void refreshTick() {
    buffer.offer(() -> {
      for (Entry e : cache.values()) {
        if (e.count > 1) {
          write(e.withSeries(), false);
        }
      }
    });
    scheduleLocked(REFRESH_PERIOD, this::refreshTick);
  }

  private void finishTick() {
    buffer.offer(() -> {
      Instant limit = clock.now().minus(FINISH_TIME);
      cache.values().removeIf(e -> finished(e, limit));
    });
    scheduleLocked(FINISH_TIME, this::finishTick);
  }

  /** A series without repeats for 6 minutes is written one last time and forgotten. */
  private boolean finished(Entry e, Instant limit) {
    if (!e.lastObserved.isBefore(limit)) {
      return false;
    }
    if (e.count > 1) {
      write(e.withSeries(), false);
    }
    return true;
  }

  /** Schedules on the clock; close() cancels what has not run yet. */
  private void scheduleLocked(Duration d, Runnable task) {
    synchronized (timers) {
      if (closed) {
        return;
      }
      Clock.Timer[] self = new Clock.Timer[1];
      self[0] =
          clock.schedule(
              d,
              () -> {
                synchronized (timers) {
                  timers.remove(self[0]);
                }
                task.run();
              });
      timers.add(self[0]);
    }
  }

  private static String ns(Event ev) {
    return ev.getMetadata().getNamespace();
  }

  private static String name(Event ev) {
    return ev.getMetadata().getName();
  }

  @Override
  public void close() {
    synchronized (timers) {
      if (closed) {
        return;
      }
      closed = true;
      timers.forEach(Clock.Timer::cancel);
      timers.clear();
    }
    try {
      buffer.put(STOP);
      worker.join();
    } catch (InterruptedException e) {
      worker.interrupt();
      Thread.currentThread().interrupt();
    }
    writer.close(CLOSE_GRACE);
  }
}
