package io.jdra.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.jdra.runtime.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Read-your-writes over an informer cache (client-go {@code tools/cache/mutation_cache.go}, {@code
 * NewIntegerResourceVersionMutationCache}). A component that just created or updated an object
 * records the API server's answer with {@link #mutation}; until the informer has seen that
 * resourceVersion (or a newer one), reads return the recorded object instead of the stale cached
 * one. So a retry after a failed follow-up step does not redo the first step (for example create a
 * second claim for the same pod).
 *
 * <ul>
 *   <li>The informer's object wins as soon as its resourceVersion is at least the recorded one (an
 *       unparsable version also lets the informer win, as upstream).
 *   <li>Recorded objects expire after the TTL on the clock, and at most {@code capacity} are kept
 *       (least recently recorded dropped first; upstream keeps 100).
 *   <li>With {@code includeAdds}, objects the informer has not seen at all (just created) are
 *       returned too, by {@link #get} and by {@link #byIndex} (using the informer's index
 *       functions).
 * </ul>
 *
 * <p>Upstream's ByIndex runs the index function over every recorded object on each call; a
 * controller that records an object per pod and looks its owner up on every pod sync paid that for
 * the whole cache (100 objects) each time. Here the recorded objects are indexed when recorded (per
 * index name, from its first lookup on), so a lookup costs what the keys it finds cost. The result
 * is the same: the informer's objects (newer recorded ones substituted), then the recorded objects
 * the informer lacks whose index values contain the key, oldest recorded first.
 *
 * <p>Thread-safe. Returned objects are shared: do not modify them.
 */
public final class MutationCache<T extends HasMetadata> {
  /** Upstream's LRU size. */
  public static final int DEFAULT_CAPACITY = 100;

  private final Indexer<T> backing;
  private final Clock clock;
  private final Duration ttl;
  private final boolean includeAdds;
  private final int capacity;

  /** Recorded objects by key, least recently recorded first. Guarded by {@code this}. */
  private final LinkedHashMap<String, Entry<T>> mutations = new LinkedHashMap<>();

  /** The recorded objects by index name and value. Guarded by {@code this}. */
  private final Map<String, RecordedIndex<T>> indexes = new HashMap<>();

  private record Entry<T>(T obj, Instant expires) {}

  public MutationCache(
      Indexer<T> backing, Clock clock, Duration ttl, boolean includeAdds, int capacity) {
    if (capacity < 1 || ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("mutation cache needs capacity >= 1 and a positive TTL");
    }
    this.backing = backing;
    this.clock = clock;
    this.ttl = ttl;
    this.includeAdds = includeAdds;
    this.capacity = capacity;
  }

  public MutationCache(Indexer<T> backing, Clock clock, Duration ttl, boolean includeAdds) {
    this(backing, clock, ttl, includeAdds, DEFAULT_CAPACITY);
  }

  /** Records an object as returned by the API server after a create or update. */
  public synchronized void mutation(T obj) {
    String key = Cache.metaNamespaceKeyFunc(obj);
    remove(key);
    mutations.put(key, new Entry<>(obj, clock.now().plus(ttl)));
    for (RecordedIndex<T> index : indexes.values()) {
      index.add(key, obj);
    }
    if (mutations.size() > capacity) {
      Iterator<String> oldest = mutations.keySet().iterator();
      remove(oldest.next());
    }
  }

  /** The newest known object with this namespace and name. */
  public Optional<T> get(String namespace, String name) {
    String key = namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    T cached = backing.getByKey(key);
    if (cached == null) {
      return includeAdds ? Optional.ofNullable(recorded(key)) : Optional.empty();
    }
    return Optional.of(newer(key, cached));
  }

  /**
   * The informer's index result with recorded newer objects substituted (and adds included). A
   * recorded object the informer adds while this runs is returned once, as the newer of the two
   * copies: the informer's index scan and its key lookup are two reads, and a claim added between
   * them must not fall through both (it did: the ResourceClaim controller then made a second claim
   * for the pod).
   */
  public List<T> byIndex(String indexName, String indexKey) {
    List<T> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (T cached : backing.byIndex(indexName, indexKey)) {
      String key = Cache.metaNamespaceKeyFunc(cached);
      seen.add(key);
      out.add(newer(key, cached));
    }
    if (!includeAdds) {
      return out;
    }
    RecordedIndex<T> index = index(indexName);
    for (Map.Entry<String, T> e : recordedFor(index, indexKey).entrySet()) {
      if (seen.contains(e.getKey())) {
        continue;
      }
      T cached = backing.getByKey(e.getKey());
      T obj = cached == null ? e.getValue() : newer(e.getKey(), cached);
      // The informer's copy, when newer, may have other index values than the recorded one.
      if (obj == e.getValue() || index.indexFunc.apply(obj).contains(indexKey)) {
        out.add(obj);
      }
    }
    return out;
  }

  /** How many objects are recorded (expired ones included until a read drops them). */
  synchronized int recordedCount() {
    return mutations.size();
  }

  /** The index of the recorded objects for this informer index, built on its first use. */
  private synchronized RecordedIndex<T> index(String indexName) {
    RecordedIndex<T> index = indexes.get(indexName);
    if (index != null) {
      return index;
    }
    Function<T, List<String>> indexFunc = backing.getIndexers().get(indexName);
    if (indexFunc == null) {
      throw new IllegalArgumentException("no index named " + indexName);
    }
    index = new RecordedIndex<>(indexFunc);
    for (Map.Entry<String, Entry<T>> e : mutations.entrySet()) {
      index.add(e.getKey(), e.getValue().obj());
    }
    indexes.put(indexName, index);
    return index;
  }

  private synchronized T newer(String key, T cached) {
    T recorded = recorded(key);
    if (recorded == null) {
      return cached;
    }
    if (compare(cached, recorded) >= 0) {
      remove(key); // the informer caught up
      return cached;
    }
    return recorded;
  }

  private synchronized T recorded(String key) {
    Entry<T> e = mutations.get(key);
    if (e == null) {
      return null;
    }
    if (!clock.now().isBefore(e.expires())) {
      remove(key);
      return null;
    }
    return e.obj();
  }

  /** The unexpired recorded objects with {@code value} in the index, oldest recorded first. */
  private synchronized Map<String, T> recordedFor(RecordedIndex<T> index, String value) {
    List<String> keys = index.keys(value);
    if (keys.isEmpty()) {
      return Map.of();
    }
    Map<String, T> out = new LinkedHashMap<>();
    for (String key : keys) {
      T obj = recorded(key);
      if (obj != null) {
        out.put(key, obj);
      }
    }
    return out;
  }

  private void remove(String key) {
    Entry<T> removed = mutations.remove(key);
    if (removed != null) {
      for (RecordedIndex<T> index : indexes.values()) {
        index.remove(key);
      }
    }
  }

  /** Compares integer resourceVersions; unparsable ones count as "cached is newer". */
  private static int compare(HasMetadata cached, HasMetadata recorded) {
    try {
      long a = Long.parseLong(cached.getMetadata().getResourceVersion());
      long b = Long.parseLong(recorded.getMetadata().getResourceVersion());
      return Long.compare(a, b);
    } catch (NumberFormatException | NullPointerException e) {
      return 1;
    }
  }

  /**
   * One index over the recorded objects: their keys by index value, in recording order, and each
   * key's values (to unindex it). Not thread-safe; used under the cache's lock.
   */
  private static final class RecordedIndex<T> {
    private final Function<T, List<String>> indexFunc;
    private final Map<String, LinkedHashSet<String>> keysByValue = new HashMap<>();
    private final Map<String, List<String>> valuesByKey = new HashMap<>();

    RecordedIndex(Function<T, List<String>> indexFunc) {
      this.indexFunc = indexFunc;
    }

    void add(String key, T obj) {
      List<String> values = indexFunc.apply(obj);
      if (values == null || values.isEmpty()) {
        return;
      }
      valuesByKey.put(key, values);
      for (String value : values) {
        keysByValue.computeIfAbsent(value, v -> new LinkedHashSet<>()).add(key);
      }
    }

    void remove(String key) {
      List<String> values = valuesByKey.remove(key);
      if (values == null) {
        return;
      }
      for (String value : values) {
        Set<String> keys = keysByValue.get(value);
        if (keys != null && keys.remove(key) && keys.isEmpty()) {
          keysByValue.remove(value);
        }
      }
    }

    /** A copy: reading an expired key removes it from the index. */
    List<String> keys(String value) {
      Set<String> keys = keysByValue.get(value);
      return keys == null ? List.of() : new ArrayList<>(keys);
    }
  }
}
