package io.jdra.apiserver.admission;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Claim statuses decoded by a status write that stored its status tree as sent, by that tree's
 * identity: the claim's next status write (the ResourceClaim controller's deallocation after the
 * scheduler's allocation) reads that very tree as the stored status, shared by the registry, and
 * takes the model instead of decoding the allocation again. Keyed by identity because stored trees
 * are never changed; the models are only read once kept. Bounded (the oldest go first; a miss only
 * costs the decode). Thread-safe.
 */
final class StoredStatuses {
  static final int MAX_ENTRIES = 1024;

  private final Map<Identity, ResourceClaimStatus> entries =
      new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Identity, ResourceClaimStatus> eldest) {
          return size() > MAX_ENTRIES;
        }
      };

  /** A tree by identity. */
  private record Identity(JsonNode tree) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Identity i && i.tree == tree;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(tree);
    }
  }

  /** The model decoded from this very tree, or null. */
  synchronized ResourceClaimStatus find(JsonNode tree) {
    return tree == null ? null : entries.get(new Identity(tree));
  }

  /**
   * Keeps {@code status}, which decoding {@code tree} gave and which no one changes from now on,
   * for the write that reads {@code tree} as the stored status.
   */
  synchronized void put(JsonNode tree, ResourceClaimStatus status) {
    entries.put(new Identity(tree), status);
  }

  synchronized int size() {
    return entries.size();
  }
}
