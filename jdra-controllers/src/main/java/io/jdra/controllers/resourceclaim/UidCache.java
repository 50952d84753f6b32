package io.jdra.controllers.resourceclaim;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bounded least-recently-used set of UIDs (upstream {@code uid_cache.go}): the pods the
 * controller saw deleted, so that a stale {@code reservedFor} entry for one of them can be dropped
 * without asking the API server. Thread-safe; a lookup counts as a use, as in groupcache's LRU.
 */
final class UidCache {
  private final Map<String, Boolean> entries;

  UidCache(int maxEntries) {
    if (maxEntries <= 0) {
      throw new IllegalArgumentException("UID cache size must be positive, got " + maxEntries);
    }
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > maxEntries;
          }
        };
  }

  /** Remembers a UID, evicting the least recently used one when full. */
  synchronized void add(String uid) {
    entries.put(uid, Boolean.TRUE);
  }

  /** Whether the UID is remembered. */
  synchronized boolean has(String uid) {
    return entries.get(uid) != null;
  }

  synchronized int size() {
    return entries.size();
  }
}
