package io.jdra.runtime.record;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;

/**
 * Records {@code events.k8s.io/v1} Events about objects (client-go {@code tools/events}
 * EventRecorder).
 *
 * <ul>
 *   <li>{@link #eventf} never blocks and never throws for API trouble: events go into a bounded
 *       buffer (1000, upstream's {@code maxQueuedEvents}) that one background thread aggregates;
 *       when the buffer is full the event is dropped and counted.
 *   <li>Repeats (same regarding and related object, reason, action, reporting controller) are
 *       aggregated as upstream: the first is created, the second turns it into a {@code series}
 *       (count 2), later ones only count up and are written when the series is refreshed (every 30
 *       minutes) or ends (no repeat for 6 minutes).
 *   <li>Writes run concurrently, as upstream's broadcaster writes each event on a goroutine: each
 *       event object's writes on a virtual thread, one after the other (a series patch never
 *       overtakes its create), at most as many pending as the buffer holds (more are dropped).
 *   <li>A write that got no answer is tried again 10 s later (plus up to 25 %), 12 attempts in all,
 *       on the clock; an answer from the API server (rejected, conflict, error) is final.
 *   <li>The recorder's own activity is logged at V(3) ("Event occurred", write failures), so
 *       components can silence it.
 *   <li>{@link #close()} writes what is buffered, waits (up to 5 s) for the writes under way, drops
 *       those waiting for a retry and stops the thread; later events are dropped.
 * </ul>
 *
 * Thread-safe.
 */
public interface EventRecorder extends AutoCloseable {
  String NORMAL = "Normal";
  String WARNING = "Warning";

  /**
   * Records an event about {@code regarding}. {@code type} is {@link #NORMAL} or {@link #WARNING}
   * (others are logged and dropped, as upstream); {@code reason} and {@code action} are constant
   * CamelCase words; the note is {@code String.format(noteFormat, args)}.
   */
  void eventf(
      HasMetadata regarding,
      HasMetadata related,
      String type,
      String reason,
      String action,
      String noteFormat,
      Object... args);

  /**
   * Records an event about part of an object, named by a reference with a {@code fieldPath} (the
   * kubelet's container events regard {@code spec.containers{NAME}} of their pod), as upstream's
   * recorders accept an ObjectReference for the object.
   */
  void eventf(
      ObjectReference regarding,
      String type,
      String reason,
      String action,
      String noteFormat,
      Object... args);

  /**
   * Flushes buffered events, waits for their writes and stops the background thread. Idempotent.
   */
  @Override
  void close();

  /** A recorder writing to the API server; {@code ctx} gives the logger and the clock. */
  static EventRecorder create(KubernetesClient client, EventRecorderOptions options, Ctx ctx) {
    return new ApiEventRecorder(client, options, ctx);
  }

  /** A recorder that keeps events in memory for tests. */
  static FakeEventRecorder fake() {
    return new FakeEventRecorder();
  }
}
