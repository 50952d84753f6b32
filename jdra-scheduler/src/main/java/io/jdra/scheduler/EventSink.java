package io.jdra.scheduler;

import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.client.ApiRequests;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The scheduler's events.k8s.io/v1 Events about pods ({@code Scheduled}, {@code FailedScheduling})
 * with reportingController {@code default-scheduler}. Never blocks the caller. As upstream's
 * broadcaster ({@code k8s.io/client-go/tools/events}), which hands each event to a goroutine of its
 * own, every event is written on a virtual thread of its own, so writes keep up with a burst of
 * scheduled pods; at most {@link Api#MAX_QUEUED_EVENTS} (upstream's {@code maxQueuedEvents}) wait
 * or are being written at once, and an event beyond that is dropped (and logged), as upstream's
 * broadcaster drops when its queue is full.
 */
interface EventSink extends AutoCloseable {
  void event(Pod pod, String type, String reason, String action, String note);

  @Override
  void close();

  /** Events kept in memory (tests). */
  final class Recording implements EventSink {
    public record Recorded(String pod, String type, String reason, String note) {}

    private final List<Recorded> events = new ArrayList<>();

    @Override
    public synchronized void event(
        Pod pod, String type, String reason, String action, String note) {
      events.add(
          new Recorded(
              pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(),
              type,
              reason,
              note));
    }

    public synchronized List<Recorded> events() {
      return List.copyOf(events);
    }

    @Override
    public void close() {}
  }

  /** Writes through the API. */
  final class Api implements EventSink {
    private static final DateTimeFormatter MICRO =
        DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);

    /** Events are created without reading the answer (the DSL would decode it). */
    private final ApiRequests.Resource<Void> events;

    private final Ctx ctx;
    private final String controller;
    private final String instance;
    private volatile boolean closed;

    /** Upstream's {@code maxQueuedEvents}. */
    static final int MAX_QUEUED_EVENTS = 1000;

    /** How long {@link #close} waits for the writes under way. */
    static final Duration CLOSE_GRACE = Duration.ofSeconds(2);

    private final Semaphore pending = new Semaphore(MAX_QUEUED_EVENTS);
    private final ThreadFactory writers = Thread.ofVirtual().name("scheduler-events-", 0).factory();

    Api(Ctx ctx, KubernetesClient client, String controller, String instance) {
      this.ctx = ctx;
      this.events = new ApiRequests(client).resource("events.k8s.io/v1", "events", Void.class);
      this.controller = controller;
      this.instance = instance;
    }

    @Override
    public void event(Pod pod, String type, String reason, String action, String note) {
      Instant now = ctx.clock().now();
      String ns = pod.getMetadata().getNamespace();
      Event e =
          new EventBuilder()
              .withNewMetadata()
              .withName(
                  pod.getMetadata().getName()
                      + "."
                      + Long.toHexString(now.getEpochSecond() * 1_000_000_000L + now.getNano()))
              .withNamespace(ns)
              .endMetadata()
              .withEventTime(new MicroTime(MICRO.format(now)))
              .withReportingController(controller)
              .withReportingInstance(instance)
              .withAction(action)
              .withReason(reason)
              .withType(type)
              .withNote(note.length() > 1024 ? note.substring(0, 1021) + "..." : note)
              .withRegarding(
                  new ObjectReferenceBuilder()
                      .withApiVersion("v1")
                      .withKind("Pod")
                      .withNamespace(ns)
                      .withName(pod.getMetadata().getName())
                      .withUid(pod.getMetadata().getUid())
                      .withResourceVersion(pod.getMetadata().getResourceVersion())
                      .build())
              .build();
      if (closed) {
        return;
      }
      if (!pending.tryAcquire()) {
        ctx.logger()
            .v(3)
            .info(
                "Event dropped, buffer full",
                "reason",
                reason,
                "pod",
                ns + "/" + pod.getMetadata().getName());
        return;
      }
      writers.newThread(() -> write(e)).start();
    }

    private void write(Event e) {
      try {
        events.create(e.getMetadata().getNamespace(), e);
      } catch (RuntimeException ex) {
        ctx.logger().v(3).info("Writing event failed", "err", ex.getMessage());
      } finally {
        pending.release();
      }
    }

    /** Takes no more events and waits up to {@link #CLOSE_GRACE} for the writes under way. */
    @Override
    public void close() {
      closed = true;
      try {
        if (pending.tryAcquire(MAX_QUEUED_EVENTS, CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
          pending.release(MAX_QUEUED_EVENTS);
        }
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
