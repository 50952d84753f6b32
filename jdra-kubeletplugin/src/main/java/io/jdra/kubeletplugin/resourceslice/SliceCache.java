package io.jdra.kubeletplugin.resourceslice;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.runtime.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The informer's slices plus the ones this controller just wrote (client-go's
 * NewIntegerResourceVersionMutationCache with includeAdds): a slice created a moment ago is not in
 * the informer yet, and a sync that did not see it would create it a second time. A written slice
 * is used while it is newer than the informer's copy and younger than the TTL. Unlike client-go, a
 * slice this controller deleted, or that the informer saw deleted, is forgotten at once, so a
 * deleted slice is republished after the next sync rather than after the TTL.
 */
final class SliceCache {
  static final String POOL_NAME_INDEX = "poolName";

  private record Entry(ResourceSlice slice, Instant expires) {}

  private final SharedIndexInformer<ResourceSlice> informer;
  private final Clock clock;
  private final Duration ttl;
  private final Map<String, Entry> written = new HashMap<>();

  SliceCache(SharedIndexInformer<ResourceSlice> informer, Clock clock, Duration ttl) {
    this.informer = informer;
    this.clock = clock;
    this.ttl = ttl;
  }

  synchronized void mutation(ResourceSlice slice) {
    written.put(slice.getMetadata().getName(), new Entry(slice, clock.now().plus(ttl)));
  }

  synchronized void deleted(String name) {
    written.remove(name);
  }

  synchronized List<ResourceSlice> byPool(String pool) {
    Map<String, ResourceSlice> byName = new LinkedHashMap<>();
    for (ResourceSlice s : informer.getIndexer().byIndex(POOL_NAME_INDEX, pool)) {
      byName.put(s.getMetadata().getName(), s);
    }
    Instant now = clock.now();
    written.values().removeIf(e -> now.isAfter(e.expires));
    for (Entry e : new ArrayList<>(written.values())) {
      ResourceSlice w = e.slice;
      if (!pool.equals(w.getSpec().getPool().getName())) {
        continue;
      }
      ResourceSlice known = byName.get(w.getMetadata().getName());
      if (known == null || rv(known) < rv(w)) {
        byName.put(w.getMetadata().getName(), w);
      } else {
        written.remove(w.getMetadata().getName());
      }
    }
    return new ArrayList<>(byName.values());
  }

  private static long rv(ResourceSlice s) {
    try {
      return Long.parseLong(s.getMetadata().getResourceVersion());
    } catch (RuntimeException e) {
      return 0;
    }
  }
}
