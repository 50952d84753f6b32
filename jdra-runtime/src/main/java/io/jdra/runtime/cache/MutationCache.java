package io.jdra.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import io.jdra.runtime.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
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
 * Thread-safe. Returned objects are shared: do not modify them.
 */
public final class MutationCache<T extends HasMetadata> {
  /** Upstream's LRU size. */
  public static final int DEFAULT_CAPACITY = 100;

  private final Indexer<T> backing;
  private final Clock clock;
  private final Duration ttl;
  private final boolean includeAdds;
  private final int capacity;
  private final LinkedHashMap<String, Entry<T>> mutations = new LinkedHashMap<>();

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
    mutations.remove(key);
    mutations.put(key, new Entry<>(obj, clock.now().plus(ttl)));
    if (mutations.size() > capacity) {
      Iterator<String> oldest = mutations.keySet().iterator();
      oldest.next();
      oldest.remove();
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
    if (includeAdds) {
      Function<T, List<String>> indexFunc = backing.getIndexers().get(indexName);
      if (indexFunc == null) {
        throw new IllegalArgumentException("no index named " + indexName);
      }
      for (Map.Entry<String, T> e : liveRecorded().entrySet()) {
        if (seen.contains(e.getKey())) {
          continue;
        }
        T cached = backing.getByKey(e.getKey());
        T obj = cached == null ? e.getValue() : newer(e.getKey(), cached);
        if (indexFunc.apply(obj).contains(indexKey)) {
          out.add(obj);
        }
      }
    }
    return out;
  }

  private synchronized T newer(String key, T cached) {
    T recorded = recorded(key);
    if (recorded == null) {
      return cached;
    }
    if (compare(cached, recorded) >= 0) {
      mutations.remove(key); // the informer caught up
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
      mutations.remove(key);
      return null;
    }
    return e.obj();
  }

  private synchronized Map<String, T> liveRecorded() {
    Map<String, T> out = new LinkedHashMap<>();
    for (String key : new ArrayList<>(mutations.keySet())) {
      T obj = recorded(key);
      if (obj != null) {
        out.put(key, obj);
      }
    }
    return out;
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
}
