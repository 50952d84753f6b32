package io.jdra.apiserver.http;

import io.jdra.apiserver.storage.StoredObject;
import io.vertx.core.buffer.Buffer;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Watch events in the stored form, encoded once for all the watches that send the same event: each
 * write reaches every watcher of its resource (five in {@code jdra bench scheduler}), which all
 * copied the object into an event of their own. A few recent events are remembered by the identity
 * of their stored object; Vert.x writes a buffer through a slice of it, so one buffer goes to many
 * connections. Thread-safe: an entry and its buffer are never modified once published.
 */
final class SharedEvents {
  private record Encoded(String type, StoredObject object, Buffer event) {}

  private static final int SLOTS = 64;
  private static final AtomicReferenceArray<Encoded> RECENT = new AtomicReferenceArray<>(SLOTS);

  private SharedEvents() {}

  /** The event {@code {"type":...,"object":<stored JSON>}\n}, not to be modified. */
  static Buffer event(String type, StoredObject object) {
    int slot = Math.floorMod(System.identityHashCode(object), SLOTS);
    Encoded e = RECENT.get(slot);
    if (e != null && e.object() == object && e.type().equals(type)) {
      return e.event();
    }
    Buffer b = WatchSession.event(type, object.json());
    RECENT.set(slot, new Encoded(type, object, b));
    return b;
  }
}
