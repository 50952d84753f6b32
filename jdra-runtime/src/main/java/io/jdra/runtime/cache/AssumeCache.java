package io.jdra.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.jdra.runtime.Ctx;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The scheduler's assume cache ({@code pkg/scheduler/util/assumecache}): an informer-fed cache in
 * which the scheduler can {@link #assume} an object it is about to write (an allocated claim), so
 * the next scheduling cycle already sees it, before the informer delivers the API server's version.
 *
 * <ul>
 *   <li>Each key has the latest object (assumed or from the informer) and the API object (from the
 *       informer). {@link #get} returns the latest, {@link #getApiObj} the informer's.
 *   <li>An informer add/update replaces both only if its resourceVersion is newer than the latest
 *       object's, so a resync or an old event does not undo an assumption; a delete removes the
 *       key.
 *   <li>{@link #assume} fails for unknown objects and for objects older than the latest ({@link
 *       OutOfSyncException}); {@link #restore} drops the assumption.
 *   <li>Handlers ({@link #addEventHandler}) see every change of the latest object, assumptions and
 *       restores included, in order, one at a time, never under the cache's lock.
 * </ul>
 *
 * Keys are "namespace/name" (or "name"). Thread-safe.
 */
public final class AssumeCache<T extends HasMetadata> {
  private final String description;
  private final String indexName;
  private final Function<T, List<String>> indexFunc;
  private final Map<String, ObjInfo<T>> objects = new HashMap<>();
  private final Map<String, Set<String>> index = new HashMap<>();
  private final List<ResourceEventHandler<T>> handlers = new CopyOnWriteArrayList<>();
  private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
  private boolean delivering;

  private record ObjInfo<T>(T latest, T api) {}

  /** No object with this key is known. */
  public static final class NotFoundException extends RuntimeException {
    NotFoundException(String description, String key) {
      super(description + " \"" + key + "\" not found");
    }
  }

  /** The object is older than the one the cache has. */
  public static final class OutOfSyncException extends RuntimeException {
    OutOfSyncException(String description, String key, long stored, long assumed) {
      super(
          description
              + " \""
              + key
              + "\" is out of sync (stored: "
              + stored
              + ", assume: "
              + assumed
              + ")");
    }
  }

  /**
   * Creates the cache and feeds it from {@code informer} until {@code ctx} is cancelled. {@code
   * indexName}/{@code indexFunc} may be null (no index).
   */
  public AssumeCache(
      Ctx ctx,
      SharedIndexInformer<T> informer,
      String description,
      String indexName,
      Function<T, List<String>> indexFunc) {
    this.description = description;
    this.indexName = indexName;
    this.indexFunc = indexFunc;
    if (informer != null) {
      Handlers.add(ctx, informer, new Feed());
    }
  }

  /** The handler that feeds this cache (tests feed it directly, without an informer). */
  ResourceEventHandler<T> feed() {
    return new Feed();
  }

  /** The key of an object in this cache. */
  public static String key(HasMetadata obj) {
    return Cache.metaNamespaceKeyFunc(obj);
  }

  /** The latest object (possibly assumed). */
  public synchronized T get(String key) {
    ObjInfo<T> info = objects.get(key);
    if (info == null) {
      throw new NotFoundException(description, key);
    }
    return info.latest();
  }

  /** The object as the informer delivered it. */
  public synchronized T getApiObj(String key) {
    ObjInfo<T> info = objects.get(key);
    if (info == null) {
      throw new NotFoundException(description, key);
    }
    return info.api();
  }

  /** All latest objects. */
  public synchronized List<T> list() {
    List<T> out = new ArrayList<>(objects.size());
    objects.values().forEach(i -> out.add(i.latest()));
    return out;
  }

  /** The latest objects whose index function gives {@code indexKey}. */
  public synchronized List<T> list(String indexKey) {
    if (indexName == null) {
      throw new IllegalStateException(description + " cache has no index");
    }
    List<T> out = new ArrayList<>();
    for (String key : index.getOrDefault(indexKey, Set.of())) {
      out.add(objects.get(key).latest());
    }
    return out;
  }

  /** Makes {@code obj} the latest object of its key until the informer has something newer. */
  public void assume(T obj) {
    String key = key(obj);
    T old;
    synchronized (this) {
      ObjInfo<T> info = objects.get(key);
      if (info == null) {
        throw new NotFoundException(description, key);
      }
      long stored = version(info.latest());
      long assumed = version(obj);
      if (assumed < stored) {
        throw new OutOfSyncException(description, key, stored, assumed);
      }
      old = info.latest();
      put(key, new ObjInfo<>(obj, info.api()));
      enqueue(() -> handlers.forEach(h -> h.onUpdate(old, obj)));
    }
    deliver();
  }

  /** Drops the assumption for this key (nothing happens for unknown keys). */
  public void restore(String key) {
    synchronized (this) {
      ObjInfo<T> info = objects.get(key);
      if (info == null || info.latest() == info.api()) {
        return;
      }
      T old = info.latest();
      put(key, new ObjInfo<>(info.api(), info.api()));
      enqueue(() -> handlers.forEach(h -> h.onUpdate(old, info.api())));
    }
    deliver();
  }

  /**
   * Adds a handler; it first receives an add for every object present, then every change. Closing
   * the registration (or cancelling the context it was tied to) removes it.
   */
  public Ctx.Registration addEventHandler(ResourceEventHandler<T> handler) {
    synchronized (this) {
      List<T> current = list();
      enqueue(() -> {
        current.forEach(handler::onAdd);
        handlers.add(handler);
      });
    }
    deliver();
    return () -> handlers.remove(handler);
  }

  private void onInformerAddOrUpdate(T obj) {
    String key = key(obj);
    synchronized (this) {
      ObjInfo<T> info = objects.get(key);
      if (info != null && version(obj) <= version(info.latest())) {
        return; // not newer: keep an assumption (or the same object after a resync)
      }
      put(key, new ObjInfo<>(obj, obj));
      T old = info == null ? null : info.latest();
      enqueue(() ->
          handlers.forEach(h -> {
            if (old == null) {
              h.onAdd(obj);
            } else {
              h.onUpdate(old, obj);
            }
          }));
    }
    deliver();
  }

  private void onInformerDelete(T obj) {
    String key = key(obj);
    synchronized (this) {
      ObjInfo<T> info = objects.remove(key);
      if (info == null) {
        return;
      }
      unindex(key, info.latest());
      enqueue(() -> handlers.forEach(h -> h.onDelete(info.latest(), false)));
    }
    deliver();
  }

  private void put(String key, ObjInfo<T> info) {
    ObjInfo<T> old = objects.put(key, info);
    if (old != null) {
      unindex(key, old.latest());
    }
    if (indexFunc != null) {
      for (String v : indexFunc.apply(info.latest())) {
        index.computeIfAbsent(v, k -> new LinkedHashSet<>()).add(key);
      }
    }
  }

  private void unindex(String key, T obj) {
    if (indexFunc == null) {
      return;
    }
    for (String v : indexFunc.apply(obj)) {
      Set<String> keys = index.get(v);
      if (keys != null && keys.remove(key) && keys.isEmpty()) {
        index.remove(v);
      }
    }
  }

  private void enqueue(Runnable event) {
    pending.addLast(event);
  }

  /** Delivers pending events in order; one thread delivers at a time, outside the cache lock. */
  private void deliver() {
    while (true) {
      Runnable next;
      synchronized (this) {
        if (delivering || pending.isEmpty()) {
          return;
        }
        delivering = true;
        next = pending.pollFirst();
      }
      try {
        next.run();
      } finally {
        synchronized (this) {
          delivering = false;
        }
      }
    }
  }

  private static long version(HasMetadata obj) {
    String rv = obj.getMetadata().getResourceVersion();
    try {
      return rv == null || rv.isEmpty() ? 0 : Long.parseLong(rv);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "resourceVersion " + rv + " of " + key(obj) + " is not an integer", e);
    }
  }

  private final class Feed implements ResourceEventHandler<T> {
    @Override
    public void onAdd(T obj) {
      onInformerAddOrUpdate(obj);
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
      onInformerAddOrUpdate(newObj);
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
      onInformerDelete(obj);
    }
  }
}
