package io.jdra.runtime.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

  private static ResourceClaim owned(String name, String rv, String podUid) {
    return Make.claim(name).namespace("ns").resourceVersion(rv).ownerPod("p", podUid).obj();
  }

  private static List<String> names(List<ResourceClaim> claims) {
    return claims.stream().map(c -> c.getMetadata().getName()).toList();
  }

  @Test
  void indexLookupsFindOnlyTheKeysRecordedObjectsAndExpireWithTheTtl() {
    cache.mutation(owned("a1", "1", "uid-a"));
    clock.step(Duration.ofMinutes(30));
    cache.mutation(owned("b1", "2", "uid-b"));
    cache.mutation(owned("a2", "3", "uid-a"));

    assertThat(names(cache.byIndex("owner", "uid-a"))).containsExactly("a1", "a2");
    assertThat(names(cache.byIndex("owner", "uid-b"))).containsExactly("b1");
    assertThat(cache.byIndex("owner", "uid-c")).isEmpty();

    // a1 was recorded 30 minutes before the others: it expires first.
    clock.step(Duration.ofMinutes(30));
    assertThat(names(cache.byIndex("owner", "uid-a"))).containsExactly("a2");
    assertThat(cache.recordedCount()).isEqualTo(2);
    clock.step(Duration.ofMinutes(30));
    assertThat(cache.byIndex("owner", "uid-a")).isEmpty();
    assertThat(cache.byIndex("owner", "uid-b")).isEmpty();

    // Recorded again after expiry: found again, for its full TTL.
    cache.mutation(owned("a1", "4", "uid-a"));
    clock.step(Duration.ofMinutes(59));
    assertThat(names(cache.byIndex("owner", "uid-a"))).containsExactly("a1");
  }

  @Test
  void anIndexFirstUsedAfterRecordingStillFindsEarlierRecords() {
    informer.addIndexers(Map.of("late", c -> List.of(c.getMetadata().getName().substring(0, 1))));
    cache.mutation(owned("x1", "1", "uid-a"));
    cache.mutation(owned("y1", "1", "uid-a"));
    assertThat(names(cache.byIndex("late", "x"))).containsExactly("x1");
    cache.mutation(owned("x2", "1", "uid-b"));
    assertThat(names(cache.byIndex("late", "x"))).containsExactly("x1", "x2");
  }

  @Test
  void reRecordingMovesAnObjectToItsNewIndexValueAndToTheEnd() {
    cache.mutation(owned("c", "1", "uid-a"));
    cache.mutation(owned("d", "1", "uid-b"));
    assertThat(names(cache.byIndex("owner", "uid-a"))).containsExactly("c");

    cache.mutation(owned("c", "2", "uid-b"));
    assertThat(cache.byIndex("owner", "uid-a")).isEmpty();
    assertThat(names(cache.byIndex("owner", "uid-b"))).containsExactly("d", "c");
  }

  @Test
  void theInformersObjectsComeFirstAndACaughtUpRecordLeavesTheIndex() {
    informer.put(owned("old", "1", "uid-a"));
    cache.mutation(owned("new", "2", "uid-a"));
    assertThat(names(cache.byIndex("owner", "uid-a"))).containsExactly("old", "new");

    informer.put(owned("new", "2", "uid-a"));
    assertThat(names(cache.byIndex("owner", "uid-a"))).containsExactlyInAnyOrder("new", "old");
    assertThat(cache.recordedCount()).isZero();
    assertThat(cache.byIndex("owner", "uid-a")).hasSize(2);
  }

  @Test
  void capacityEvictionAlsoLeavesTheIndex() {
    MutationCache<ResourceClaim> small =
        new MutationCache<>(informer, clock, Duration.ofHours(1), true, 2);
    small.mutation(owned("a", "1", "uid-a"));
    assertThat(names(small.byIndex("owner", "uid-a"))).containsExactly("a");
    small.mutation(owned("b", "1", "uid-b"));
    small.mutation(owned("c", "1", "uid-c"));
    assertThat(small.byIndex("owner", "uid-a")).isEmpty();
    assertThat(names(small.byIndex("owner", "uid-c"))).containsExactly("c");
    assertThat(small.recordedCount()).isEqualTo(2);
  }

  @Test
  void anUnknownIndexIsAnError() {
    cache.mutation(owned("a", "1", "uid-a"));
    assertThatThrownBy(() -> cache.byIndex("nope", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope");
  }
}
