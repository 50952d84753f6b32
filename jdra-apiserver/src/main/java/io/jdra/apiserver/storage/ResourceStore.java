package io.jdra.apiserver.storage;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongFunction;
import java.util.function.Predicate;

/**
 * The objects of one resource, ordered by key, with a bounded history of events for watch
 * resumption. Thread-safe: one lock per resource, held only for in-memory work (the builder passed
 * to writes serializes the object; persistence appends are non-blocking). Write futures complete
 * once the write is durable.
 *
 * <p>Watchers see a write only once it is durable (as etcd's watchers see only committed
 * revisions): events reach listeners in resourceVersion order from the persistence's completion,
 * which is immediate in memory. Reads see a write as soon as it is made.
 */
public final class ResourceStore {
  private final String resource;
  private final AtomicLong counter;
  private final Persistence persistence;

  /**
   * Bytes of object JSON the history may hold besides its count limit, so that rewriting large
   * objects cannot exhaust the heap; a watch from further back gets 410 Gone and re-lists, as after
   * an etcd compaction.
   */
  static final long HISTORY_BYTES = 64L << 20;

  private final int historyLimit;
  private final long historyBytesLimit;
  private long historyBytes;
  private final ReentrantLock lock = new ReentrantLock();
  private final TreeMap<String, StoredObject> objects = new TreeMap<>();
  private final ArrayDeque<WatchEvent> history = new ArrayDeque<>();
  private final List<Registration> listeners = new ArrayList<>();

  /** The newest event of this store delivered to watchers (durable). */
  private long committedVersion;

  /** The newest event of this store made (maybe not durable yet). */
  private long publishedVersion;

  /** A listener and the version up to which it already has the state (from a list or replay). */
  private record Registration(WatchListener listener, long skipUpTo) {}

  private long compactedVersion;

  /** A store whose resource's state is known only from now on. */
  ResourceStore(String resource, AtomicLong counter, Persistence persistence, int historyLimit) {
    this(resource, counter, persistence, historyLimit, counter.get());
  }

  /**
   * @param knownSince the oldest resourceVersion whose state of this resource is known: a store
   *     made before any write of its resource was empty at every version since then
   */
  ResourceStore(
      String resource,
      AtomicLong counter,
      Persistence persistence,
      int historyLimit,
      long knownSince) {
    this(resource, counter, persistence, historyLimit, HISTORY_BYTES, knownSince);
  }

  /** As above, with the history's byte limit (for tests). */
  ResourceStore(
      String resource,
      AtomicLong counter,
      Persistence persistence,
      int historyLimit,
      long historyBytesLimit,
      long knownSince) {
    this.resource = resource;
    this.counter = counter;
    this.persistence = persistence;
    this.historyLimit = historyLimit;
    this.historyBytesLimit = historyBytesLimit;
    this.compactedVersion = knownSince;
    this.committedVersion = counter.get();
    this.publishedVersion = committedVersion;
  }

  /** The resource key ({@code group/plural}). */
  public String resource() {
    return resource;
  }

  /** The current object, or null. */
  public StoredObject get(String namespace, String name) {
    lock.lock();
    try {
      return objects.get(StoredObject.key(namespace, name));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Lists current objects in key order.
   *
   * @param namespace only this namespace, or null for all
   * @param afterKey start after this key, or null
   * @param filter which objects to return
   * @param limit at most this many (0 = all)
   */
  public ListPage list(
      String namespace, String afterKey, Predicate<StoredObject> filter, int limit) {
    return listAt(0, namespace, afterKey == null ? null : afterKey + "\0", filter, limit);
  }

  /**
   * Lists objects in key order as they were at {@code version}, rebuilt from the current objects
   * and the remembered history. The page is complete when {@code nextKey} is null; otherwise more
   * objects (matching {@code filter} or not) follow the last one returned, and {@code remaining}
   * counts them.
   *
   * @param version the resourceVersion to read at, 0 for the current state
   * @param namespace only this namespace, or null for all
   * @param fromKey the first key to consider (a continue token's start), or null
   * @param filter which objects to return
   * @param limit at most this many (0 = all)
   * @throws StorageException.Gone if history no longer reaches back to {@code version}
   */
  public ListPage listAt(
      long version, String namespace, String fromKey, Predicate<StoredObject> filter, int limit) {
    lock.lock();
    try {
      long now = counter.get();
      boolean past = version > 0 && version < now;
      if (past && version < compactedVersion) {
        throw new StorageException.Gone(version, compactedVersion);
      }
      NavigableMap<String, StoredObject> undone =
          past
              ? PastState.undone(history.descendingIterator(), version, namespace, fromKey)
              : Collections.emptyNavigableMap();
      Iterator<StoredObject> it =
          PastState.merge(PastState.range(objects, namespace, fromKey), undone);
      return page(it, filter, limit, version > 0 ? version : now);
    } finally {
      lock.unlock();
    }
  }

  private static ListPage page(
      Iterator<StoredObject> it, Predicate<StoredObject> filter, int limit, long version) {
    List<StoredObject> items = new ArrayList<>(limit > 0 ? Math.min(limit, 1024) : 16);
    boolean full = false;
    long remaining = 0;
    while (it.hasNext()) {
      StoredObject o = it.next();
      if (full) {
        remaining++;
      } else if (filter.test(o)) {
        items.add(o);
        full = limit > 0 && items.size() == limit;
      }
    }
    String next = remaining > 0 ? items.get(items.size() - 1).key() : null;
    return new ListPage(items, version, next, remaining);
  }

  /** Number of stored objects. */
  public int size() {
    lock.lock();
    try {
      return objects.size();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Creates an object. {@code build} receives the new resourceVersion and returns the stored form.
   *
   * @throws StorageException.AlreadyExists if the key is taken
   */
  public CompletableFuture<StoredObject> create(
      String namespace, String name, LongFunction<StoredObject> build) {
    String key = StoredObject.key(namespace, name);
    lock.lock();
    try {
      if (objects.containsKey(key)) {
        throw new StorageException.AlreadyExists(key);
      }
      StoredObject created = build.apply(counter.incrementAndGet());
      objects.put(key, created);
      return publish(new WatchEvent(WatchEvent.Type.ADDED, created, null));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Replaces an object if its resourceVersion is {@code expectedVersion} (any when 0).
   *
   * @throws StorageException.NotFound or Conflict
   */
  public CompletableFuture<StoredObject> update(
      String namespace, String name, long expectedVersion, LongFunction<StoredObject> build) {
    return change(namespace, name, expectedVersion, build, WatchEvent.Type.MODIFIED);
  }

  /**
   * Removes an object if its resourceVersion is {@code expectedVersion} (any when 0); {@code build}
   * gives its last state at the deletion's version.
   */
  public CompletableFuture<StoredObject> delete(
      String namespace, String name, long expectedVersion, LongFunction<StoredObject> build) {
    return change(namespace, name, expectedVersion, build, WatchEvent.Type.DELETED);
  }

  /** An update or delete of an existing object, conditional on its version (any when 0). */
  private CompletableFuture<StoredObject> change(
      String namespace,
      String name,
      long expectedVersion,
      LongFunction<StoredObject> build,
      WatchEvent.Type type) {
    String key = StoredObject.key(namespace, name);
    lock.lock();
    try {
      StoredObject current = objects.get(key);
      if (current == null) {
        throw new StorageException.NotFound(key);
      }
      if (expectedVersion != 0 && current.resourceVersion() != expectedVersion) {
        throw new StorageException.Conflict(key);
      }
      StoredObject next = build.apply(counter.incrementAndGet());
      if (type == WatchEvent.Type.DELETED) {
        objects.remove(key);
      } else {
        objects.put(key, next);
      }
      return publish(new WatchEvent(type, next, current));
    } finally {
      lock.unlock();
    }
  }

  private CompletableFuture<StoredObject> publish(WatchEvent event) {
    remember(event);
    publishedVersion = event.resourceVersion();
    boolean deleted = event.type() == WatchEvent.Type.DELETED;
    CompletableFuture<Void> durable =
        persistence.append(new LogRecord(resource, event.object(), deleted));
    if (durable.isDone() && !durable.isCompletedExceptionally()) {
      committed(event); // in memory: at once, still under the write's lock
    } else {
      // The log completes appends in order, so events are committed in resourceVersion order.
      durable.thenRun(() -> {
        lock.lock();
        try {
          committed(event);
        } finally {
          lock.unlock();
        }
      });
    }
    return durable.thenApply(v -> event.object());
  }

  /** Delivers a durable event; caller holds the lock. */
  private void committed(WatchEvent event) {
    committedVersion = event.resourceVersion();
    for (Registration r : listeners) {
      if (event.resourceVersion() > r.skipUpTo()) {
        r.listener().onEvent(event);
      }
    }
  }

  /**
   * The version a watcher is up to date with once it has every delivered event: the global counter
   * when nothing of this store awaits durability, else the last durable event.
   */
  private long deliveredVersion() {
    return publishedVersion == committedVersion ? counter.get() : committedVersion;
  }

  private void remember(WatchEvent event) {
    history.addLast(event);
    historyBytes += size(event);
    // the newest event always stays: watchers registered now must be able to resume from it
    while (history.size() > historyLimit
        || (historyBytes > historyBytesLimit && history.size() > 1)) {
      WatchEvent old = history.removeFirst();
      historyBytes -= size(old);
      compactedVersion = old.resourceVersion();
    }
  }

  /** What an event keeps alive: its object, and the previous version it replaced. */
  private static long size(WatchEvent e) {
    return e.object().json().length + (e.previous() == null ? 0 : e.previous().json().length);
  }

  /**
   * Starts a watch from {@code fromVersion}: replays the remembered events after it, then delivers
   * new ones.
   *
   * @throws StorageException.Gone if events after {@code fromVersion} were compacted away
   */
  public Runnable watch(long fromVersion, WatchListener listener) {
    lock.lock();
    try {
      if (fromVersion < compactedVersion) {
        throw new StorageException.Gone(fromVersion, compactedVersion);
      }
      Iterator<WatchEvent> it = history.descendingIterator();
      ArrayDeque<WatchEvent> replay = new ArrayDeque<>();
      while (it.hasNext()) {
        WatchEvent e = it.next();
        if (e.resourceVersion() <= fromVersion) {
          break;
        }
        if (e.resourceVersion() <= committedVersion) {
          replay.addFirst(e); // later events reach the listener when they are durable
        }
      }
      replay.forEach(listener::onEvent);
      listeners.add(new Registration(listener, fromVersion));
      return () -> removeListener(listener);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Starts a watch that first sees every current object as ADDED (resourceVersion "" or "0").
   *
   * @param filter which current objects to announce
   */
  public Runnable watchFromNow(Predicate<StoredObject> filter, WatchListener listener) {
    return watchFromNow(filter, listener, true, false);
  }

  /**
   * Starts a watch at the current state, atomically with respect to writes.
   *
   * @param filter which current objects to announce
   * @param initialEvents whether the listener first gets every current object that passes {@code
   *     filter} (as {@link WatchListener#onInitial})
   * @param endMarker whether the listener then gets {@link WatchListener#onInitialEventsEnd} at the
   *     current resourceVersion
   */
  public Runnable watchFromNow(
      Predicate<StoredObject> filter,
      WatchListener listener,
      boolean initialEvents,
      boolean endMarker) {
    lock.lock();
    try {
      if (initialEvents) {
        for (StoredObject o : objects.values()) {
          if (filter.test(o)) {
            listener.onInitial(o);
          }
        }
      }
      if (endMarker) {
        listener.onInitialEventsEnd(counter.get());
      }
      // The initial state holds every write made so far, durable or not.
      listeners.add(new Registration(listener, counter.get()));
      return () -> removeListener(listener);
    } finally {
      lock.unlock();
    }
  }

  /** Tells a listener how far it is up to date (for bookmarks). */
  public void progress(WatchListener listener) {
    lock.lock();
    try {
      listener.onProgress(deliveredVersion());
    } finally {
      lock.unlock();
    }
  }

  private void removeListener(WatchListener listener) {
    lock.lock();
    try {
      listeners.removeIf(r -> r.listener() == listener);
    } finally {
      lock.unlock();
    }
  }

  // --- used by Storage for recovery and snapshots ---

  void lock() {
    lock.lock();
  }

  void unlock() {
    lock.unlock();
  }

  /** Copies all objects; caller holds the lock. */
  List<StoredObject> copyLocked() {
    return new ArrayList<>(objects.values());
  }

  /** Applies a recovered record without persisting it again. */
  void replay(LogRecord r, boolean fromTail) {
    StoredObject o = r.object();
    committedVersion = Math.max(committedVersion, o.resourceVersion());
    publishedVersion = committedVersion;
    StoredObject previous;
    if (r.deleted()) {
      previous = objects.remove(o.key());
      if (fromTail && previous != null) {
        remember(new WatchEvent(WatchEvent.Type.DELETED, o, previous));
      }
    } else {
      previous = objects.put(o.key(), o);
      if (fromTail) {
        WatchEvent.Type t = previous == null ? WatchEvent.Type.ADDED : WatchEvent.Type.MODIFIED;
        remember(new WatchEvent(t, o, previous));
      }
    }
  }

  void setCompactedVersion(long version) {
    compactedVersion = version;
    committedVersion = Math.max(committedVersion, version);
    publishedVersion = Math.max(publishedVersion, version);
  }
}
