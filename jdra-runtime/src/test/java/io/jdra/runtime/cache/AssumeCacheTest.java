package io.jdra.runtime.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.testing.objects.Make;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AssumeCacheTest {
  private final AssumeCache<ResourceClaim> cache =
      new AssumeCache<>(
          Ctx.forTest(new FakeClock()),
          null,
          "ResourceClaim",
          "driver",
          c -> List.of(c.getMetadata().getLabels().getOrDefault("driver", "")));
  private final ResourceEventHandler<ResourceClaim> informer = cache.feed();

  private static ResourceClaim claim(String rv, String driver) {
    return Make.claim("c").namespace("ns").resourceVersion(rv).labels("driver", driver).obj();
  }

  private static String rv(ResourceClaim c) {
    return c.getMetadata().getResourceVersion();
  }

  @Test
  void assumedObjectsSurviveOlderInformerEventsAndYieldToNewerOnes() {
    informer.onAdd(claim("1", "a"));
    cache.assume(claim("1", "b"));
    assertThat(rv(cache.get("ns/c"))).isEqualTo("1");
    assertThat(cache.get("ns/c").getMetadata().getLabels()).containsEntry("driver", "b");
    assertThat(cache.list("b")).hasSize(1);
    assertThat(cache.list("a")).isEmpty();

    informer.onUpdate(claim("1", "a"), claim("1", "a"));
    assertThat(cache.get("ns/c").getMetadata().getLabels()).containsEntry("driver", "b");

    informer.onUpdate(claim("1", "a"), claim("2", "a"));
    assertThat(rv(cache.get("ns/c"))).isEqualTo("2");
    assertThat(rv(cache.getApiObj("ns/c"))).isEqualTo("2");
  }

  @Test
  void restoreGoesBackToTheApiObject() {
    informer.onAdd(claim("3", "a"));
    cache.assume(claim("4", "b"));
    cache.restore("ns/c");
    assertThat(rv(cache.get("ns/c"))).isEqualTo("3");
    assertThat(cache.list()).hasSize(1);
  }

  @Test
  void assumeRefusesUnknownAndOlderObjects() {
    assertThatThrownBy(() -> cache.assume(claim("1", "a")))
        .isInstanceOf(AssumeCache.NotFoundException.class)
        .hasMessage("ResourceClaim \"ns/c\" not found");
    informer.onAdd(claim("5", "a"));
    assertThatThrownBy(() -> cache.assume(claim("4", "a")))
        .isInstanceOf(AssumeCache.OutOfSyncException.class)
        .hasMessage("ResourceClaim \"ns/c\" is out of sync (stored: 5, assume: 4)");
  }

  @Test
  void handlersReplayThenSeeEveryChangeInOrder() {
    informer.onAdd(claim("1", "a"));
    List<String> seen = new ArrayList<>();
    Runnable close =
        cache.addEventHandler(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(ResourceClaim obj) {
                    seen.add("add " + rv(obj));
                  }

                  @Override
                  public void onUpdate(ResourceClaim oldObj, ResourceClaim newObj) {
                    seen.add("update " + rv(oldObj) + "->" + rv(newObj));
                  }

                  @Override
                  public void onDelete(ResourceClaim obj, boolean unknown) {
                    seen.add("delete " + rv(obj));
                  }
                })
            ::close;
    cache.assume(claim("2", "a"));
    cache.restore("ns/c");
    informer.onDelete(claim("1", "a"), false);
    close.run();
    informer.onAdd(claim("9", "a"));

    assertThat(seen).containsExactly("add 1", "update 1->2", "update 2->1", "delete 1");
  }
}
