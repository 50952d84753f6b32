package io.jdra.exampledriver.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.runtime.workqueue.MockQueue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The reconciler's dispatch, with a cache-like map, a mock queue and plugins that record. */
class ClaimReconcilerTest {
  private static final String DRIVER = "gpu.example.com";
  private final Ctx ctx = Ctx.forTest(new FakeClock());
  private final Map<String, ResourceClaim> cache = new LinkedHashMap<>();
  private final MockQueue<String> queue = new MockQueue<>();
  private final Recording first = new Recording("First", false);
  private final Recording failing = new Recording("Failing", true);

  @Test
  void runsEveryPluginOnAClaimAllocatedFromItsDriver() {
    ResourceClaim claim = allocated("c1", DRIVER);
    cache.put("default/c1", claim);
    ClaimReconciler r = reconciler(first);

    r.reconcile(ctx, "default/c1");

    assertThat(first.seen).containsExactly(claim);
  }

  @Test
  void ignoresClaimsOfOtherDriversUnallocatedAndDeletedClaims() {
    cache.put("default/other", allocated("other", "net.example.com"));
    cache.put(
        "default/pending",
        new ResourceClaimBuilder().withNewMetadata().withName("pending").endMetadata().build());
    ClaimReconciler r = reconciler(first);

    r.reconcile(ctx, "default/other");
    r.reconcile(ctx, "default/pending");
    r.reconcile(ctx, "default/gone");

    assertThat(first.seen).isEmpty();
  }

  @Test
  void aFailedPluginHasTheKeyRetriedAndTheOthersStillRun() {
    cache.put("default/c1", allocated("c1", DRIVER));
    ClaimReconciler r = reconciler(failing, first);
    r.enqueue(cache.get("default/c1"));

    assertThat(r.processNextWorkItem(ctx)).isTrue();

    assertThat(first.seen).hasSize(1);
    MockQueue.State<String> s = queue.state();
    assertThat(s.failures()).containsEntry("default/c1", 1);
    assertThat(s.inFlight()).isEmpty();
  }

  @Test
  void aSuccessfulReconcileForgetsTheBackoff() {
    cache.put("default/c1", allocated("c1", DRIVER));
    ClaimReconciler r = reconciler(first);
    queue.addRateLimited("default/c1");
    r.enqueue(cache.get("default/c1"));

    r.processNextWorkItem(ctx);

    assertThat(queue.state().failures()).isEmpty();
  }

  private ClaimReconciler reconciler(Plugin... plugins) {
    return new ClaimReconciler(null, DRIVER, List.of(plugins), lister(), queue, () -> true);
  }

  private Lister<ResourceClaim> lister() {
    return new Lister<>() {
      @Override
      public Optional<ResourceClaim> get(String namespace, String name) {
        return Optional.ofNullable(cache.get(namespace + "/" + name));
      }

      @Override
      public List<ResourceClaim> list() {
        return List.copyOf(cache.values());
      }

      @Override
      public List<ResourceClaim> list(String namespace) {
        return list();
      }

      @Override
      public List<ResourceClaim> byIndex(String indexName, String key) {
        return List.of();
      }
    };
  }

  private static ResourceClaim allocated(String name, String driver) {
    return BindingConditionsPluginTest.claim(
            new DeviceRequestAllocationResultBuilder()
                .withRequest("gpu")
                .withDriver(driver)
                .withPool("node-1")
                .withDevice("gpu-0")
                .build())
        .edit()
        .editMetadata()
        .withName(name)
        .endMetadata()
        .build();
  }

  private static final class Recording implements Plugin {
    final String name;
    final boolean fail;
    final List<ResourceClaim> seen = new ArrayList<>();

    Recording(String name, boolean fail) {
      this.name = name;
      this.fail = fail;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public void reconcile(Ctx ctx, KubernetesClient client, ResourceClaim claim) {
      seen.add(claim);
      if (fail) {
        throw new IllegalStateException("conflict");
      }
    }
  }
}
