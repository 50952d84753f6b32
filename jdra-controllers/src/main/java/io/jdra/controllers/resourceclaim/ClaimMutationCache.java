package io.jdra.controllers.resourceclaim;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Read-your-writes over the claim informer for the owner index (client-go's mutation cache, as
 * upstream's controller uses it): claims this controller created are returned by {@link #byIndex}
 * until the informer has them or the TTL passes. Thread-safe.
 */
final class ClaimMutationCache {
  private final Lister<ResourceClaim> lister;
  private final Clock clock;
  private final Duration ttl;
  private final Map<String, Entry> created = new LinkedHashMap<>();

  private record Entry(ResourceClaim claim, Instant expires) {}

  ClaimMutationCache(Lister<ResourceClaim> lister, Clock clock, Duration ttl) {
    this.lister = lister;
    this.clock = clock;
    this.ttl = ttl;
  }

  /** Remembers a claim the controller just wrote. */
  synchronized void mutation(ResourceClaim claim) {
    created.put(key(claim), new Entry(claim, clock.now().plus(ttl)));
  }

  /** The informer's objects for the index key, plus newer remembered writes. */
  List<ResourceClaim> byIndex(String index, String key) {
    List<ResourceClaim> fromInformer = lister.byIndex(index, key);
    List<ResourceClaim> extra = new ArrayList<>();
    synchronized (this) {
      Instant now = clock.now();
      created.values().removeIf(e -> !now.isBefore(e.expires()) || known(e.claim()));
      for (Entry e : created.values()) {
        if (Indexes.claimPodOwner(e.claim()).contains(key)
            && fromInformer.stream().noneMatch(c -> key(c).equals(key(e.claim())))) {
          extra.add(e.claim());
        }
      }
    }
    if (extra.isEmpty()) {
      return fromInformer;
    }
    List<ResourceClaim> all = new ArrayList<>(fromInformer);
    all.addAll(extra);
    return all;
  }

  /** The informer already has this version or a newer one. */
  private boolean known(ResourceClaim claim) {
    Optional<ResourceClaim> cached =
        lister.get(claim.getMetadata().getNamespace(), claim.getMetadata().getName());
    return cached.isPresent() && version(cached.get()) >= version(claim);
  }

  private static long version(ResourceClaim claim) {
    try {
      return Long.parseLong(claim.getMetadata().getResourceVersion());
    } catch (NumberFormatException | NullPointerException e) {
      return 0;
    }
  }

  private static String key(ResourceClaim claim) {
    return claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName();
  }
}
