package io.jdra.controllers.resourceclaim;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.cache.Lister;
import io.jdra.runtime.cache.MutationCache;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.runtime.workqueue.MockQueue;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One test case's world: objects in the embedded API server (the "server" state, written through
 * the real client) and in informer caches the test fills itself (the "cache" state, which may lag
 * or differ), a fake clock, a mock queue and recorded events. Each harness has its own namespace.
 */
final class Harness {
  final KubernetesClient client;
  final String ns = "ns-" + UUID.randomUUID().toString().substring(0, 8);
  final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  final Ctx ctx = Ctx.forTest(clock);
  final MockQueue<String> queue = new MockQueue<>();
  final List<String> events = new ArrayList<>();
  final PrometheusRegistry registry = new PrometheusRegistry();
  final CacheImpl<Pod> pods = new CacheImpl<>();
  final CacheImpl<ResourceClaim> claims = new CacheImpl<>();
  final CacheImpl<ResourceClaimTemplate> templates = new CacheImpl<>();
  Deps.Features features = new Deps.Features(true, true, true);
  private ResourceClaimController controller;

  Harness(KubernetesClient client) {
    this.client = client;
    // Labelled for admin access, so that templates requesting it can exist at all.
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(ns)
                .addToLabels("resource.kubernetes.io/admin-access", "true")
                .endMetadata()
                .build())
        .create();
    pods.addIndexers(
        Map.of(
            Indexes.POD_RESOURCE_CLAIM_INDEX,
            p -> Indexes.podResourceClaims(p, features.extendedResource())));
    claims.addIndexers(Map.of(Indexes.CLAIM_POD_OWNER_INDEX, Indexes::claimPodOwner));
  }

  ResourceClaimController controller() {
    if (controller == null) {
      Lister<ResourceClaim> claimLister = Lister.of(claims);
      Deps deps =
          new Deps(
              client,
              Lister.of(pods),
              claimLister,
              new MutationCache<>(claims, clock, ResourceClaimController.CLAIM_CACHE_TTL, true),
              Lister.of(templates),
              (pod, reason, action, note) ->
                  events.add("Warning " + reason + " " + pod.getMetadata().getName() + ": " + note),
              ResourceClaimMetrics.create(registry, claimLister::list),
              new UidCache(ResourceClaimController.MAX_UID_CACHE_ENTRIES),
              features,
              Deps.PodGroups.fromApi(client));
      controller = new ResourceClaimController(deps, queue, List.of(() -> true));
    }
    return controller;
  }

  void sync(String key) {
    controller().syncHandler(ctx, key);
  }

  // ---- server and cache state ----

  /** Creates the pod (with its status) in the server and puts the result in the cache. */
  Pod pod(Pod p) {
    Pod created = podNotCached(p);
    pods.put(created);
    return created;
  }

  Pod podNotCached(Pod p) {
    Pod created = client.pods().inNamespace(ns).resource(inNs(p)).create();
    if (p.getStatus() != null) {
      created =
          client
              .pods()
              .inNamespace(ns)
              .resource(new PodBuilder(created).withStatus(p.getStatus()).build())
              .updateStatus();
    }
    return created;
  }

  /** Creates the claim (status and finalizers included) and caches the result. */
  ResourceClaim claim(ResourceClaim c) {
    ResourceClaim created = claimNotCached(c);
    claims.put(created);
    return created;
  }

  ResourceClaim claimNotCached(ResourceClaim c) {
    ResourceClaim created =
        client.resources(ResourceClaim.class).inNamespace(ns).resource(inNs(c)).create();
    if (c.getStatus() != null) {
      created =
          client
              .resources(ResourceClaim.class)
              .inNamespace(ns)
              .resource(new ResourceClaimBuilder(created).withStatus(c.getStatus()).build())
              .updateStatus();
    }
    return created;
  }

  ResourceClaimTemplate template(ResourceClaimTemplate t) {
    ResourceClaimTemplate created =
        client.resources(ResourceClaimTemplate.class).inNamespace(ns).resource(inNs(t)).create();
    templates.put(created);
    return created;
  }

  /** Marks a server object as being deleted (it has a finalizer), and caches that state. */
  ResourceClaim deleting(ResourceClaim created) {
    client.resources(ResourceClaim.class).inNamespace(ns).resource(created).delete();
    ResourceClaim now = serverClaim(created.getMetadata().getName());
    claims.put(now);
    return now;
  }

  Pod serverPod(String name) {
    return client.pods().inNamespace(ns).withName(name).get();
  }

  ResourceClaim serverClaim(String name) {
    return client.resources(ResourceClaim.class).inNamespace(ns).withName(name).get();
  }

  List<ResourceClaim> serverClaims() {
    return client.resources(ResourceClaim.class).inNamespace(ns).list().getItems();
  }

  String podKey(String name) {
    return ResourceClaimController.POD_KEY_PREFIX + ns + "/" + name;
  }

  String claimKey(String name) {
    return ResourceClaimController.CLAIM_KEY_PREFIX + ns + "/" + name;
  }

  private <T extends HasMetadata> T inNs(T obj) {
    obj.getMetadata().setNamespace(ns);
    return obj;
  }
}
