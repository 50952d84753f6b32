package io.jdra.runtime.record;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.api.model.events.v1.EventSeries;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
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

/** The events.k8s.io/v1 recorder and broadcaster of client-go's tools/events, in one class. */
final class ApiEventRecorder implements EventRecorder {
  static final Duration REFRESH_PERIOD = Duration.ofMinutes(30);
  static final Duration FINISH_TIME = Duration.ofMinutes(6);
  static final int MAX_TRIES = 12;
  static final Duration RETRY_DELAY = Duration.ofSeconds(10);
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);
  private static final Runnable STOP = () -> {};

  private final KubernetesClient client;
  private final EventRecorderOptions options;
  private final Clock clock;
  private final Logger log;
  private final BlockingQueue<Runnable> buffer;
  private final Map<Key, Event> cache = new HashMap<>();
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

  ApiEventRecorder(KubernetesClient client, EventRecorderOptions options, Ctx ctx) {
    this.client = client;
    this.options = options;
    this.clock = ctx.clock();
    this.log = ctx.logger().withName("events").v(3);
    this.buffer = new ArrayBlockingQueue<>(options.bufferSize());
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

  /** Events dropped because the buffer was full or the recorder closed. */
  long dropped() {
    return dropped.get();
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

  /** Upstream's recordToSink: aggregate into the cache, then write if needed. */
  private void record(Event ev) {
    Key key =
        new Key(
            ev.getAction(),
            ev.getReason(),
            ev.getReportingController(),
            ev.getRegarding(),
            ev.getRelated());
    Event cached = cache.get(key);
    if (cached == null) {
      cache.put(key, ev);
      write(new EventBuilder(ev).build(), 1);
      return;
    }
    MicroTime now = microTime(clock.now());
    if (cached.getSeries() != null) {
      cached.getSeries().setCount(cached.getSeries().getCount() + 1);
      cached.getSeries().setLastObservedTime(now);
      return;
    }
    cached.setSeries(new EventSeries(2, now));
    write(new EventBuilder(cached).build(), 1);
  }

  /** Creates the event, or patches its series; retries transient failures on the clock. */
  private void write(Event ev, int attempt) {
    try {
      if (ev.getSeries() == null) {
        client.events().v1().events().inNamespace(ns(ev)).resource(ev).create();
      } else {
        patchSeries(ev);
      }
      logEvent(ev);
    } catch (KubernetesClientException e) {
      int code = e.getCode();
      if (code == 409) {
        log.info("Event already exists, not retried", "event", name(ev));
      } else if (code >= 400 && code < 500 && code != 429) {
        log.info(
            "Server rejected event (will not retry!)", "event", name(ev), "err", e.getMessage());
      } else if (attempt >= MAX_TRIES) {
        log.info("Unable to write event (retry limit exceeded!)", "event", name(ev));
      } else if (!closed) {
        log.info("Unable to write event, will retry", "event", name(ev), "err", e.getMessage());
        scheduleLocked(RETRY_DELAY, () -> buffer.offer(() -> write(ev, attempt + 1)));
      }
    }
  }

  private void patchSeries(Event ev) {
    try {
      client
          .events()
          .v1()
          .events()
          .inNamespace(ns(ev))
          .withName(name(ev))
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"series\":{\"count\":"
                  + ev.getSeries().getCount()
                  + ",\"lastObservedTime\":\""
                  + ev.getSeries().getLastObservedTime().getTime()
                  + "\"}}");
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
      // The first event expired or was deleted: create it anew, series included.
      Event fresh =
          new EventBuilder(ev).editMetadata().withResourceVersion(null).endMetadata().build();
      client.events().v1().events().inNamespace(ns(ev)).resource(fresh).create();
    }
  }

  private void logEvent(Event ev) {
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

  private void refreshTick() {
    buffer.offer(() -> {
      for (Event ev : cache.values()) {
        if (ev.getSeries() != null) {
          write(new EventBuilder(ev).build(), MAX_TRIES);
        }
      }
    });
    scheduleLocked(REFRESH_PERIOD, this::refreshTick);
  }

  private void finishTick() {
    buffer.offer(() -> {
      Instant limit = clock.now().minus(FINISH_TIME);
      cache.entrySet().removeIf(e -> finished(e.getValue(), limit));
    });
    scheduleLocked(FINISH_TIME, this::finishTick);
  }

  /** A series without repeats for 6 minutes is written one last time and forgotten. */
  private boolean finished(Event ev, Instant limit) {
    if (ev.getSeries() != null) {
      if (Instant.parse(ev.getSeries().getLastObservedTime().getTime()).isBefore(limit)) {
        write(new EventBuilder(ev).build(), MAX_TRIES);
        return true;
      }
      return false;
    }
    return Instant.parse(ev.getEventTime().getTime()).isBefore(limit);
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
  }
}
