package io.jdra.scheduler;

import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The scheduler's events.k8s.io/v1 Events about pods ({@code Scheduled}, {@code FailedScheduling})
 * with reportingController {@code default-scheduler}. Never blocks the caller: events go through a
 * bounded buffer to one writer thread; when the buffer is full the event is dropped (and logged),
 * as upstream's broadcaster drops under pressure.
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

    private final KubernetesClient client;
    private final Ctx ctx;
    private final String controller;
    private final String instance;
    private final BlockingQueue<Event> buffer = new ArrayBlockingQueue<>(1000);
    private final Thread writer;
    private volatile boolean closed;

    Api(Ctx ctx, KubernetesClient client, String controller, String instance) {
      this.ctx = ctx;
      this.client = client;
      this.controller = controller;
      this.instance = instance;
      this.writer = new Thread(this::run, "scheduler-events");
      writer.setDaemon(true);
      writer.start();
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
      if (!buffer.offer(e)) {
        ctx.logger()
            .v(3)
            .info(
                "Event dropped, buffer full",
                "reason",
                reason,
                "pod",
                ns + "/" + pod.getMetadata().getName());
      }
    }

    private void run() {
      while (!closed || !buffer.isEmpty()) {
        try {
          Event e = buffer.poll(100, TimeUnit.MILLISECONDS);
          if (e == null) {
            continue;
          }
          client.resource(e).create();
        } catch (InterruptedException ie) {
          return;
        } catch (RuntimeException ex) {
          ctx.logger().v(3).info("Writing event failed", "err", ex.getMessage());
        }
      }
    }

    @Override
    public void close() {
      closed = true;
      try {
        writer.join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      writer.interrupt();
    }
  }
}
