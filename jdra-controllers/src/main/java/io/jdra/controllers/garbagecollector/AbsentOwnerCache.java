package io.jdra.controllers.garbagecollector;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Owners known not to exist (upstream's {@code absentOwnerCache}, a {@code ReferenceCache}): an LRU
 * of {@link #SIZE} identities, keyed by coordinates and namespace, not by UID alone, so that a
 * reference naming an owner in the wrong namespace does not make the owner look absent to its
 * dependents in the right one. The graph builder adds owners it saw deleted or found absent; the
 * workers add those they found absent. Thread-safe.
 */
final class AbsentOwnerCache {
  /** Upstream's size. */
  static final int SIZE = 500;

  private final Map<ObjectIdentity, Boolean> lru =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ObjectIdentity, Boolean> eldest) {
          return size() > SIZE;
        }
      };

  synchronized void add(ObjectIdentity absent) {
    lru.put(absent, Boolean.TRUE);
  }

  synchronized boolean has(ObjectIdentity identity) {
    return lru.containsKey(identity);
  }
}
