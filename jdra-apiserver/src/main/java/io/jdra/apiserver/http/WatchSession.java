package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.FieldSelector;
import io.jdra.apiserver.meta.LabelSelector;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.storage.StoredObject;
import io.jdra.apiserver.storage.WatchEvent;
import io.jdra.apiserver.storage.WatchListener;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One watch: filters the store's events by namespace and selectors (turning selector transitions
 * into ADDED/DELETED as upstream does), queues them, and writes them on its Vert.x context. The
 * store calls {@link #onEvent} under its lock; this class only enqueues there.
 */
final class WatchSession implements WatchListener {
  /**
   * A queued event: an object event (live ones count against {@link #MAX_PENDING}), or a BOOKMARK
   * (object null) that may end the initial events.
   */
  private record Pending(
      String type, StoredObject object, long bookmark, boolean initialEnd, boolean live) {}

  /** Where encoded events go: a chunked response or a WebSocket. */
  interface Sink {
    void write(Buffer event);

    void end();

    /** Registers what to do when the peer goes away. */
    void onClose(Runnable r);

    /** Whether the transport's write queue is full (the peer reads too slowly). */
    boolean full();

    /** Runs {@code r} once the write queue has room again. */
    void onDrain(Runnable r);
  }

  /** Events a watch may have queued before it is closed as too slow, as upstream's cacher. */
  static final int MAX_PENDING = 10_000;

  /**
   * Bytes of object JSON a watch may have queued before it is closed as too slow: counted in bytes
   * too, so that a slow watcher of large objects cannot hold the heap (its client re-lists).
   */
  static final long MAX_PENDING_BYTES = 32L << 20;

  private final java.util.concurrent.atomic.AtomicInteger pending =
      new java.util.concurrent.atomic.AtomicInteger();

  private final java.util.concurrent.atomic.AtomicLong pendingBytes =
      new java.util.concurrent.atomic.AtomicLong();

  private final Context context;
  private final ResourceType type;
  private final Encoder encoder;
  private final String namespace;
  private final LabelSelector labels;
  private final FieldSelector fields;
  private final Sink sink;
  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean scheduled = new AtomicBoolean();
  private volatile boolean closed;
  private volatile boolean held;
  private volatile boolean started;
  private volatile long startVersion;
  private volatile Runnable cancel = () -> {};

  /** Encodes one event's object in the requested version/format. */
  interface Encoder {
    Buffer encode(String type, StoredObject object);

    Buffer bookmark(long version);

    /** The BOOKMARK that ends a watch's initial events (annotated k8s.io/initial-events-end). */
    default Buffer initialEventsEnd(long version) {
      return bookmark(version);
    }
  }

  WatchSession(
      Context context,
      ResourceType type,
      Encoder encoder,
      String namespace,
      LabelSelector labels,
      FieldSelector fields,
      Sink sink) {
    this.context = context;
    this.type = type;
    this.encoder = encoder;
    this.namespace = namespace;
    this.labels = labels;
    this.fields = fields;
    this.sink = sink;
  }

  ResourceType type() {
    return type;
  }

  /** Sets how to unregister; runs it at once if the watch already ended (e.g. while waiting). */
  void setCancel(Runnable cancel) {
    this.cancel = cancel;
    started = true;
    if (closed) {
      cancel.run();
    }
  }

  /**
   * Drops changes at or before {@code version}: a watch from a resourceVersion the server has not
   * reached yet only sends what comes after it, as upstream's cache watcher. Call before
   * registering.
   */
  void startAfter(long version) {
    startVersion = version;
  }

  /**
   * Holds every queued event back until {@link #release}: the initial events show the store's
   * current state, which may hold writes not yet durable, and a client may see them only once they
   * are (as a GET or LIST). Call before registering.
   */
  void hold() {
    held = true;
  }

  /** Sends what {@link #hold} kept back, in order, and everything after it. */
  void release() {
    held = false;
    schedule();
  }

  /** Whether the watch is registered with the store. */
  boolean started() {
    return started;
  }

  boolean matches(StoredObject o) {
    return (namespace.isEmpty() || namespace.equals(o.namespace()))
        && labels.matches(o.labels())
        && fields.matches(o.fields());
  }

  @Override
  public void onEvent(WatchEvent e) {
    if (closed || e.resourceVersion() <= startVersion) {
      return;
    }
    boolean now = matches(e.object());
    boolean before = e.previous() != null && matches(e.previous());
    String t =
        switch (e.type()) {
          case ADDED -> now ? "ADDED" : null;
          case MODIFIED -> now ? (before ? "MODIFIED" : "ADDED") : before ? "DELETED" : null;
          case DELETED -> before || now ? "DELETED" : null;
        };
    if (t != null) {
      long bytes = pendingBytes.addAndGet(e.object().json().length);
      if (pending.incrementAndGet() > MAX_PENDING || bytes > MAX_PENDING_BYTES) {
        // A watcher that cannot keep up is dropped; its client re-lists and watches again.
        closed = true;
        queue.clear();
        context.runOnContext(v -> sink.end());
        cancelLater();
        return;
      }
      queue.add(new Pending(t, e.object(), 0, false, true));
      schedule();
    }
  }

  /**
   * Queues an object of the starting state. These are not counted against {@link #MAX_PENDING}:
   * they reference objects the store holds anyway, as upstream serves them from its cache.
   */
  @Override
  public void onInitial(StoredObject object) {
    if (!closed) {
      queue.add(new Pending("ADDED", object, 0, false, false));
      schedule();
    }
  }

  @Override
  public void onInitialEventsEnd(long version) {
    if (!closed) {
      queue.add(new Pending("BOOKMARK", null, version, true, false));
      schedule();
    }
  }

  @Override
  public void onProgress(long version) {
    if (!closed) {
      queue.add(new Pending("BOOKMARK", null, version, false, false));
      schedule();
    }
  }

  /** Queues a raw, already encoded event (e.g. an ERROR) and then ends the watch. */
  void failAndClose(Buffer errorEvent) {
    context.runOnContext(v -> {
      if (!closed) {
        sink.write(errorEvent);
        close();
      }
    });
  }

  private void schedule() {
    if (scheduled.compareAndSet(false, true)) {
      context.runOnContext(v -> drain());
    }
  }

  private void drain() {
    scheduled.set(false);
    if (held) {
      return; // release() drains
    }
    Pending p;
    while (!closed && !sink.full() && (p = queue.poll()) != null) {
      if (p.live) {
        pending.decrementAndGet();
        pendingBytes.addAndGet(-p.object.json().length);
      }
      Buffer b;
      if (p.object == null) {
        b = p.initialEnd ? encoder.initialEventsEnd(p.bookmark) : encoder.bookmark(p.bookmark);
      } else {
        b = encoder.encode(p.type, p.object);
      }
      sink.write(b);
    }
    if (!closed && sink.full()) {
      sink.onDrain(this::schedule);
    }
  }

  /** Unregisters outside the store lock (onEvent runs under it). */
  private void cancelLater() {
    context.runOnContext(v -> cancel.run());
  }

  /** Stops the watch: unregisters from the store and ends the sink. Idempotent. */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    cancel.run();
    queue.clear();
    sink.end();
  }

  /** Stops the watch after the peer went away (the sink is already closed). */
  void peerClosed() {
    closed = true;
    cancel.run();
    queue.clear();
  }

  static Buffer event(String type, Buffer object) {
    Buffer b = Buffer.buffer(object.length() + 32);
    b.appendString("{\"type\":\"").appendString(type).appendString("\",\"object\":");
    b.appendBuffer(object);
    b.appendString("}\n");
    return b;
  }

  /** As {@link #event(String, Buffer)} for an object's JSON bytes. */
  static Buffer event(String type, byte[] object) {
    Buffer b = Buffer.buffer(object.length + 32);
    b.appendString("{\"type\":\"").appendString(type).appendString("\",\"object\":");
    b.appendBytes(object);
    b.appendString("}\n");
    return b;
  }

  static Consumer<Buffer> ignore() {
    return b -> {};
  }

  static String utf8(Buffer b) {
    return b.toString(StandardCharsets.UTF_8);
  }
}
