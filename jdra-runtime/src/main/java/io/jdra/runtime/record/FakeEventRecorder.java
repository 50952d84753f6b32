package io.jdra.runtime.record;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.jdra.runtime.logging.Klog;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link EventRecorder} that keeps every event in memory, in order, without aggregation
 * (client-go's {@code FakeRecorder}). Thread-safe.
 */
public final class FakeEventRecorder implements EventRecorder {
  private final List<Recorded> events = new ArrayList<>();
  private boolean closed;

  /** One recorded event; {@code toString()} is upstream's "Type Reason note". */
  public record Recorded(
      String regarding, String related, String type, String reason, String action, String note) {
    @Override
    public String toString() {
      return type + " " + reason + " " + note;
    }
  }

  @Override
  public synchronized void eventf(
      HasMetadata regarding,
      HasMetadata related,
      String type,
      String reason,
      String action,
      String noteFormat,
      Object... args) {
    if (closed) {
      return;
    }
    events.add(
        new Recorded(
            Klog.kobj(regarding).toString(),
            related == null ? null : Klog.kobj(related).toString(),
            type,
            reason,
            action,
            args.length == 0 ? noteFormat : String.format(noteFormat, args)));
  }

  /** Recorded with {@code regarding} as {@code namespace/name} (the field path is not kept). */
  @Override
  public synchronized void eventf(
      ObjectReference regarding,
      String type,
      String reason,
      String action,
      String noteFormat,
      Object... args) {
    if (closed) {
      return;
    }
    events.add(
        new Recorded(
            Klog.kref(regarding.getNamespace(), regarding.getName()).toString(),
            null,
            type,
            reason,
            action,
            args.length == 0 ? noteFormat : String.format(noteFormat, args)));
  }

  /** The events recorded so far. */
  public synchronized List<Recorded> events() {
    return List.copyOf(events);
  }

  /** The events as "Type Reason note" strings. */
  public synchronized List<String> strings() {
    return events.stream().map(Recorded::toString).toList();
  }

  @Override
  public synchronized void close() {
    closed = true;
  }
}
