package io.jdra.runtime.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.testing.objects.Make;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MutationCacheTest {
  private final FakeClock clock = new FakeClock();
  private final CacheImpl<ResourceClaim> informer =
      new CacheImpl<>(
          Cache.NAMESPACE_INDEX, Cache::metaNamespaceIndexFunc, Cache::metaNamespaceKeyFunc);
  private final MutationCache<ResourceClaim> cache;

  MutationCacheTest() {
    informer.addIndexers(
        Map.of("owner", c -> List.of(c.getMetadata().getOwnerReferences().get(0).getUid())));
    cache = new MutationCache<>(informer, clock, Duration.ofHours(1), true);
  }

  private static ResourceClaim claim(String name, String rv) {
    return Make.claim(name).namespace("ns").resourceVersion(rv).ownerPod("p", "pod-uid").obj();
  }

  @Test
  void recordedNewerObjectWinsUntilTheInformerCatchesUp() {
    informer.put(claim("c", "5"));
    cache.mutation(claim("c", "7"));
    assertThat(cache.get("ns", "c").orElseThrow().getMetadata().getResourceVersion())
        .isEqualTo("7");

    informer.put(claim("c", "7"));
    cache.mutation(claim("c", "7"));
    assertThat(cache.get("ns", "c").orElseThrow().getMetadata().getResourceVersion())
        .isEqualTo("7");
    informer.put(claim("c", "9"));
    assertThat(cache.get("ns", "c").orElseThrow().getMetadata().getResourceVersion())
        .isEqualTo("9");
  }

  @Test
  void createdObjectsAreVisibleByKeyAndIndexUntilTheTtlPasses() {
    cache.mutation(claim("new", "3"));
    assertThat(cache.get("ns", "new")).isPresent();
    assertThat(cache.byIndex("owner", "pod-uid"))
        .extracting(c -> c.getMetadata().getName())
        .containsExactly("new");

    clock.step(Duration.ofHours(1));
    assertThat(cache.get("ns", "new")).isEmpty();
    assertThat(cache.byIndex("owner", "pod-uid")).isEmpty();
  }

  @Test
  void olderRecordedObjectsNeverHideTheInformersAndAddsNeedTheFlag() {
    informer.put(claim("c", "9"));
    cache.mutation(claim("c", "7"));
    assertThat(cache.get("ns", "c").orElseThrow().getMetadata().getResourceVersion())
        .isEqualTo("9");

    MutationCache<ResourceClaim> noAdds =
        new MutationCache<>(informer, clock, Duration.ofHours(1), false);
    noAdds.mutation(claim("other", "1"));
    assertThat(noAdds.get("ns", "other")).isEmpty();
  }

  @Test
  void aRecordedObjectTheInformerAddsDuringTheIndexScanIsStillFound() {
    ResourceClaim created = claim("created", "4");
    CacheImpl<ResourceClaim> racing =
        new CacheImpl<>(
            Cache.NAMESPACE_INDEX, Cache::metaNamespaceIndexFunc, Cache::metaNamespaceKeyFunc) {
          @Override
          public List<ResourceClaim> byIndex(String indexName, String indexKey) {
            List<ResourceClaim> before = super.byIndex(indexName, indexKey);
            put(created); // the informer's watch delivers the add right after the scan
            return before;
          }
        };
    racing.addIndexers(
        Map.of("owner", c -> List.of(c.getMetadata().getOwnerReferences().get(0).getUid())));
    MutationCache<ResourceClaim> cache =
        new MutationCache<>(racing, clock, Duration.ofHours(1), true);
    cache.mutation(created);

    assertThat(cache.byIndex("owner", "pod-uid"))
        .extracting(c -> c.getMetadata().getName())
        .containsExactly("created");
  }

  @Test
  void aRecordedObjectIsNotReturnedForAnIndexItsInformerCopyLeft() {
    cache.mutation(claim("moved", "4"));
    informer.put(
        Make.claim("moved").namespace("ns").resourceVersion("6").ownerPod("q", "other").obj());

    assertThat(cache.byIndex("owner", "pod-uid")).isEmpty();
    assertThat(cache.byIndex("owner", "other"))
        .extracting(c -> c.getMetadata().getResourceVersion())
        .containsExactly("6");
  }

  @Test
  void capacityDropsTheOldestRecord() {
    MutationCache<ResourceClaim> small =
        new MutationCache<>(informer, clock, Duration.ofHours(1), true, 2);
    small.mutation(claim("a", "1"));
    small.mutation(claim("b", "1"));
    small.mutation(claim("c", "1"));
    assertThat(small.get("ns", "a")).isEmpty();
    assertThat(small.get("ns", "c")).isPresent();
  }
}
