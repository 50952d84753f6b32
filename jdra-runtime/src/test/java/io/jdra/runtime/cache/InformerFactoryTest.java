package io.jdra.runtime.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.Clock;
import io.jdra.testing.apiserver.WithApiServer;
import io.jdra.testing.objects.Make;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Informers, listers and handler removal against the embedded API server. */
@WithApiServer
class InformerFactoryTest {
  @Test
  void informersSyncListAndIndexAndHandlersStopOnCancel(KubernetesClient client) {
    client.resource(Make.claim("before").namespace("default").request("gpu").obj()).create();
    InformerFactory factory = new InformerFactory(client);
    Ctx ctx = Ctx.forTest(Clock.system()).withCancel();
    try {
      SharedIndexInformer<ResourceClaim> claims = factory.informer(ResourceClaim.class);
      assertThat(factory.informer(ResourceClaim.class)).as("shared per type").isSameAs(claims);
      claims.addIndexers(
          Map.of(
              "by-class",
              c ->
                  List.of(
                      c.getSpec()
                          .getDevices()
                          .getRequests()
                          .get(0)
                          .getExactly()
                          .getDeviceClassName())));
      Ctx handlerCtx = ctx.withCancel();
      List<String> seen = new CopyOnWriteArrayList<>();
      Handlers.add(handlerCtx, claims, recorder(seen));
      factory.informer(Pod.class);

      factory.start(ctx);
      assertThat(factory.waitForCacheSync(ctx, Duration.ofSeconds(30))).isTrue();
      assertThat(factory.synced()).isTrue();

      Lister<ResourceClaim> lister = factory.lister(ResourceClaim.class);
      assertThat(lister.get("default", "before")).isPresent();
      assertThat(lister.list("default")).hasSize(1);
      assertThat(lister.byIndex("by-class", "gpu")).hasSize(1);
      await().untilAsserted(() -> assertThat(seen).containsExactly("add before"));

      handlerCtx.cancel();
      client.resource(Make.claim("after").namespace("default").request("gpu").obj()).create();
      await().untilAsserted(() -> assertThat(lister.get("default", "after")).isPresent());
      assertThat(seen).as("removed handler saw nothing more").containsExactly("add before");
    } finally {
      ctx.cancel();
    }
    assertThat(factory.synced()).isTrue();
  }

  @Test
  void handlersRunOnTheFactorysInformerThreads(KubernetesClient client) {
    // Trimmed and untrimmed informers alike watch through views that run on the factory's
    // InformerExecutor (an event goes from decoding to the handlers on one thread).
    InformerFactory factory = new InformerFactory(client).trimManagedFields(Pod.class);
    Ctx ctx = Ctx.forTest(Clock.system()).withCancel();
    try {
      List<String> threads = new CopyOnWriteArrayList<>();
      List<String> seen = new CopyOnWriteArrayList<>();
      ResourceEventHandler<Object> onThread =
          new ResourceEventHandler<>() {
            @Override
            public void onAdd(Object obj) {
              threads.add(Thread.currentThread().getName());
              seen.add(((io.fabric8.kubernetes.api.model.HasMetadata) obj).getMetadata().getName());
            }

            @Override
            public void onUpdate(Object oldObj, Object newObj) {}

            @Override
            public void onDelete(Object obj, boolean deletedFinalStateUnknown) {}
          };
      Handlers.add(ctx, factory.informer(ResourceClaim.class), onThread);
      Handlers.add(ctx, factory.informer(Pod.class), onThread);
      factory.start(ctx);
      assertThat(factory.waitForCacheSync(ctx, Duration.ofSeconds(30))).isTrue();
      client.resource(Make.claim("on-thread").namespace("default").request("gpu").obj()).create();
      client.resource(pod("on-thread")).create();
      await().untilAsserted(() -> assertThat(seen).containsSubsequence("on-thread", "on-thread"));
      assertThat(threads).allMatch(n -> n.startsWith("informer-pool-"), "informer-pool threads");
    } finally {
      ctx.cancel();
      factory.stop();
    }
  }

  @Test
  void cancellingOneStartStopsOnlyTheInformersThatStartStarted(KubernetesClient client) {
    // A factory shared by two components (scheduler_perf's: the scheduler and the ResourceClaim
    // controller): each starts what it asked for, and stopping one leaves the other's running.
    InformerFactory factory = new InformerFactory(client);
    Ctx first = Ctx.forTest(Clock.system()).withCancel();
    Ctx second = Ctx.forTest(Clock.system()).withCancel();
    try {
      SharedIndexInformer<Pod> pods = factory.informer(Pod.class);
      factory.start(first);
      SharedIndexInformer<ResourceClaim> claims = factory.informer(ResourceClaim.class);
      factory.start(second);
      assertThat(factory.waitForCacheSync(second, Duration.ofSeconds(30))).isTrue();
      assertThat(claims.hasSynced()).isTrue();

      first.cancel();
      assertThat(pods.isRunning()).isFalse();
      assertThat(claims.isRunning()).isTrue();
      client.resource(Make.claim("later").namespace("default").request("gpu").obj()).create();
      await()
          .untilAsserted(() ->
              assertThat(factory.lister(ResourceClaim.class).get("default", "later")).isPresent());
    } finally {
      first.cancel();
      second.cancel();
    }
    assertThat(factory.informer(ResourceClaim.class).isRunning()).isFalse();
  }

  @Test
  void aRemovedMetadataInformerStopsAndIsMadeAfreshWhenAskedForAgain(KubernetesClient client) {
    InformerFactory factory = new InformerFactory(client);
    Ctx ctx = Ctx.forTest(Clock.system()).withCancel();
    ResourceDefinitionContext configMaps =
        new ResourceDefinitionContext.Builder()
            .withGroup("")
            .withVersion("v1")
            .withPlural("configmaps")
            .withKind("ConfigMap")
            .withNamespaced(true)
            .build();
    try {
      SharedIndexInformer<GenericKubernetesResource> first = factory.metadataInformer(configMaps);
      factory.start(ctx);
      assertThat(factory.waitForCacheSync(ctx, Duration.ofSeconds(30))).isTrue();

      factory.removeMetadataInformer(configMaps);
      assertThat(first.isRunning()).isFalse();
      SharedIndexInformer<GenericKubernetesResource> second = factory.metadataInformer(configMaps);
      assertThat(second).isNotSameAs(first);
      assertThat(second.isRunning()).isFalse();
      factory.start(ctx);
      assertThat(factory.waitForCacheSync(ctx, Duration.ofSeconds(30))).isTrue();
      assertThat(second.hasSynced()).isTrue();
    } finally {
      ctx.cancel();
    }
  }

  @Test
  void trimmingInformersHoldObjectsWithoutManagedFieldsWhileGetsKeepThem(KubernetesClient client) {
    client.resource(pod("listed")).create();
    InformerFactory factory = new InformerFactory(client, true);
    Ctx ctx = Ctx.forTest(Clock.system()).withCancel();
    try {
      List<Pod> handed = new CopyOnWriteArrayList<>();
      Handlers.add(ctx, factory.informer(Pod.class), adds(handed));
      factory.start(ctx);
      assertThat(factory.waitForCacheSync(ctx, Duration.ofSeconds(30))).isTrue();
      client.resource(pod("watched")).create();
      client.pods().inNamespace("default").withName("watched").edit(p -> labelled(p, "b"));

      Lister<Pod> lister = factory.lister(Pod.class);
      for (String name : List.of("listed", "watched")) {
        Pod got = factory.client().pods().inNamespace("default").withName(name).get();
        assertThat(got.getMetadata().getManagedFields()).as(name).isNotEmpty();
        await()
            .untilAsserted(() ->
                assertThat(lister.get("default", name))
                    .as(name + " at the GET's resourceVersion")
                    .hasValueSatisfying(p ->
                        assertThat(p.getMetadata().getResourceVersion())
                            .isEqualTo(got.getMetadata().getResourceVersion())));
        got.getMetadata().setManagedFields(new ArrayList<>());
        assertThat(lister.get("default", name)).as(name).contains(got);
      }
      assertThat(handed)
          .filteredOn(p -> p.getMetadata().getName().matches("listed|watched"))
          .hasSize(2)
          .allSatisfy(p -> assertThat(managedFields(p)).isZero());
    } finally {
      ctx.cancel();
    }
  }

  @Test
  void oneTypeTrimsAsTheSchedulersPodInformerAndTheOthersKeepManagedFields(
      KubernetesClient client) {
    client.resource(pod("p")).create();
    client.resource(Make.claim("c").namespace("default").request("gpu").obj()).create();
    InformerFactory factory = new InformerFactory(client).trimManagedFields(Pod.class);
    Ctx ctx = Ctx.forTest(Clock.system()).withCancel();
    try {
      Lister<Pod> pods = factory.lister(Pod.class);
      Lister<ResourceClaim> claims = factory.lister(ResourceClaim.class);
      factory.start(ctx);
      assertThat(factory.waitForCacheSync(ctx, Duration.ofSeconds(30))).isTrue();
      assertThat(factory.trimsManagedFields(Pod.class)).isTrue();
      assertThat(factory.trimsManagedFields(ResourceClaim.class)).isFalse();
      assertThat(pods.get("default", "p"))
          .hasValueSatisfying(p -> assertThat(managedFields(p)).isZero());
      ResourceClaim got =
          client.resources(ResourceClaim.class).inNamespace("default").withName("c").get();
      assertThat(got.getMetadata().getManagedFields()).isNotEmpty();
      assertThat(claims.get("default", "c")).contains(got);
    } finally {
      ctx.cancel();
    }
  }

  @Test
  void aTypeIsTrimmedBeforeItsInformerExistsOrNotAtAll(KubernetesClient client) {
    InformerFactory factory = new InformerFactory(client);
    factory.informer(Pod.class);
    assertThatThrownBy(() -> factory.trimManagedFields(Pod.class))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Pod");
    InformerFactory trimming = new InformerFactory(client, true);
    trimming.informer(Pod.class);
    assertThat(trimming.trimManagedFields(Pod.class).trimsManagedFields(Pod.class)).isTrue();
  }

  private static Pod pod(String name) {
    return Make.pod(name).namespace("default").container("c").obj();
  }

  private static Pod labelled(Pod p, String value) {
    p.getMetadata().setLabels(Map.of("a", value));
    return p;
  }

  private static int managedFields(Pod p) {
    return p.getMetadata().getManagedFields().size();
  }

  private static ResourceEventHandler<Pod> adds(List<Pod> into) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod obj) {
        into.add(obj);
      }

      @Override
      public void onUpdate(Pod oldObj, Pod newObj) {}

      @Override
      public void onDelete(Pod obj, boolean deletedFinalStateUnknown) {}
    };
  }

  @Test
  void waitForCacheSyncReturnsFalseOnACancelledContext(KubernetesClient client) {
    InformerFactory factory = new InformerFactory(client);
    Ctx ctx = Ctx.forTest(Clock.system()).withCancel();
    factory.informer(Pod.class, "nowhere");
    ctx.cancel();
    assertThat(factory.waitForCacheSync(ctx, Duration.ofSeconds(5))).isFalse();
    factory.stop();
  }

  private static ResourceEventHandler<ResourceClaim> recorder(List<String> seen) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(ResourceClaim obj) {
        seen.add("add " + obj.getMetadata().getName());
      }

      @Override
      public void onUpdate(ResourceClaim oldObj, ResourceClaim newObj) {
        seen.add("update " + newObj.getMetadata().getName());
      }

      @Override
      public void onDelete(ResourceClaim obj, boolean deletedFinalStateUnknown) {
        seen.add("delete " + obj.getMetadata().getName());
      }
    };
  }
}
