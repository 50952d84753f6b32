package io.jdra.controllers.namespace;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jdra.controllers.controllerutil.ApiErrors;
import io.jdra.controllers.controllerutil.ApiResources;
import io.jdra.controllers.controllerutil.ApiResources.Gvr;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.Clock;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Empties a namespace being deleted and then finalizes it (upstream's {@code
 * namespacedResourcesDeleter}): every namespaced resource that can be deleted is deleted as a
 * collection (or item by item) with background propagation; what is left is counted, by resource
 * and by finalizer, into the namespace's conditions; once nothing is left the {@code kubernetes}
 * finalizer is removed through the {@code finalize} subresource, after which the API server removes
 * the namespace. Thread-safe.
 */
final class NamespacedResourcesDeleter {
  /** The finalizer this controller owns in {@code spec.finalizers}. */
  static final String FINALIZER_KUBERNETES = "kubernetes";

  /** Upstream's {@code finalizerEstimateSeconds}: how long finalizers are assumed to take. */
  static final long FINALIZER_ESTIMATE_SECONDS = 15;

  /** Content remains; look again in about {@code estimate} seconds. */
  static final class ResourcesRemainingException extends RuntimeException {
    final long estimate;

    ResourcesRemainingException(long estimate) {
      super(
          "some content remains in the namespace, estimate "
              + estimate
              + " seconds before it is removed",
          null,
          false,
          false);
      this.estimate = estimate;
    }
  }

  private final KubernetesClient client;
  private final Supplier<ApiResources> discovery;
  private final Clock clock;

  NamespacedResourcesDeleter(
      KubernetesClient client, Supplier<ApiResources> discovery, Clock clock) {
    this.client = client;
    this.discovery = discovery;
    this.clock = clock;
  }

  /**
   * One pass over namespace {@code name}.
   *
   * @throws ResourcesRemainingException when content is left to wait for
   * @throws RuntimeException on API errors, to be retried with backoff
   */
  void delete(Ctx ctx, String name) {
    Namespace ns = client.namespaces().withName(name).get();
    if (ns == null || ns.getMetadata().getDeletionTimestamp() == null) {
      return;
    }
    ns = ensureTerminating(ns);
    if (ns == null || ns.getSpec() == null || ns.getSpec().getFinalizers().isEmpty()) {
      return;
    }
    long estimate = deleteAllContent(ctx, ns);
    if (estimate > 0) {
      throw new ResourcesRemainingException(estimate);
    }
    finalizeNamespace(ns);
    ctx.logger().v(2).info("Namespace finalized", "namespace", name);
  }

  private Namespace ensureTerminating(Namespace ns) {
    if ("Terminating".equals(ns.getStatus() == null ? null : ns.getStatus().getPhase())) {
      return ns;
    }
    Namespace copy =
        new NamespaceBuilder(ns).editOrNewStatus().withPhase("Terminating").endStatus().build();
    return client.namespaces().resource(copy).updateStatus();
  }

  private void finalizeNamespace(Namespace ns) {
    List<String> kept =
        ns.getSpec().getFinalizers().stream()
            .filter(f -> !f.equals(FINALIZER_KUBERNETES))
            .sorted()
            .distinct()
            .toList();
    Namespace copy = new NamespaceBuilder(ns).editSpec().withFinalizers(kept).endSpec().build();
    String url =
        client.getMasterUrl().toString().replaceAll("/+$", "")
            + "/api/v1/namespaces/"
            + URLEncoder.encode(ns.getMetadata().getName(), StandardCharsets.UTF_8)
            + "/finalize";
    client.raw(url, "PUT", copy);
  }

  private record Remaining(long estimate, int count, Map<String, Integer> finalizers) {}

  /** Upstream's {@code deleteAllContent}: returns the estimate; writes the conditions. */
  long deleteAllContent(Ctx ctx, Namespace ns) {
    String name = ns.getMetadata().getName();
    Instant deletedAt = Instant.parse(ns.getMetadata().getDeletionTimestamp());
    NamespaceConditions conditions = new NamespaceConditions(clock.now());
    ApiResources resources = discovery.get();
    if (!resources.failedGroups().isEmpty()) {
      conditions.discoveryFailed(resources.failedGroups());
    }
    long estimate = 0;
    List<String> errors = new ArrayList<>();
    Map<String, Integer> byResource = new TreeMap<>();
    Map<String, Integer> byFinalizer = new TreeMap<>();
    for (Gvr gvr : resources.resources()) {
      if (!gvr.namespaced() || !gvr.supports("delete")) {
        continue;
      }
      try {
        Remaining r = deleteAllContentForResource(ctx, gvr, name, deletedAt);
        estimate = Math.max(estimate, r.estimate());
        if (r.count() > 0) {
          byResource.put(gvr.resource() + "." + gvr.group(), r.count());
          r.finalizers().forEach((f, n) -> byFinalizer.merge(f, n, Integer::sum));
        }
      } catch (RuntimeException e) {
        errors.add(ApiErrors.message(e));
        conditions.deleteContentFailed(ApiErrors.message(e));
      }
    }
    conditions.contentTotals(byResource, byFinalizer);
    writeConditions(ns, conditions);
    if (!errors.isEmpty()) {
      throw new IllegalStateException(String.join(", ", errors));
    }
    ctx.logger().v(4).info("Deleted all content", "namespace", name, "estimate", estimate);
    return estimate;
  }

  /** Writes the conditions if they changed, on the namespace as it is now. */
  private void writeConditions(Namespace ns, NamespaceConditions conditions) {
    Namespace latest = client.namespaces().withName(ns.getMetadata().getName()).get();
    if (latest == null) {
      return;
    }
    List<NamespaceCondition> current =
        latest.getStatus() == null ? List.of() : latest.getStatus().getConditions();
    List<NamespaceCondition> updated = conditions.update(current);
    if (updated != null) {
      client
          .namespaces()
          .resource(
              new NamespaceBuilder(latest)
                  .editOrNewStatus()
                  .withConditions(updated)
                  .endStatus()
                  .build())
          .updateStatus();
    }
  }

  private Remaining deleteAllContentForResource(Ctx ctx, Gvr gvr, String ns, Instant deletedAt) {
    long estimate = 0;
    if (gvr.group().isEmpty() && gvr.resource().equals("pods")) {
      estimate = estimateGracefulTermination(ns, deletedAt);
    }
    if (gvr.supports("deletecollection")) {
      deleteCollection(gvr, ns);
    } else if (gvr.supports("list")) {
      deleteEachItem(gvr, ns);
    }
    if (!gvr.supports("list")) {
      return new Remaining(estimate, 0, Map.of());
    }
    List<GenericKubernetesResource> left =
        client.genericKubernetesResources(gvr.context()).inNamespace(ns).list().getItems();
    if (left.isEmpty()) {
      return new Remaining(0, 0, Map.of());
    }
    Map<String, Integer> finalizers = new TreeMap<>();
    for (GenericKubernetesResource o : left) {
      for (String f : o.getMetadata().getFinalizers()) {
        finalizers.merge(f, 1, Integer::sum);
      }
    }
    if (estimate != 0) {
      return new Remaining(estimate, left.size(), finalizers);
    }
    if (!finalizers.isEmpty()) {
      return new Remaining(FINALIZER_ESTIMATE_SECONDS, left.size(), finalizers);
    }
    ctx.logger()
        .v(4)
        .info("Items still remain", "namespace", ns, "resource", gvr, "count", left.size());
    throw new IllegalStateException(
        "unexpected items still remain in namespace: "
            + ns
            + " for gvr: "
            + gvr.group()
            + "/"
            + gvr.version()
            + ", Resource="
            + gvr.resource());
  }

  /**
   * Upstream's {@code estimateGracefulTerminationForPods}: the longest grace period of a pod not
   * finished yet, or 0 once that long has passed since the namespace's deletion.
   */
  private long estimateGracefulTermination(String ns, Instant deletedAt) {
    long estimate = 0;
    for (Pod p : client.pods().inNamespace(ns).list().getItems()) {
      String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
      if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
        continue;
      }
      Long grace = p.getSpec().getTerminationGracePeriodSeconds();
      if (grace != null && grace > estimate) {
        estimate = grace;
      }
    }
    if (Duration.between(deletedAt, clock.now()).compareTo(Duration.ofSeconds(estimate)) >= 0) {
      return 0;
    }
    return estimate;
  }

  private void deleteCollection(Gvr gvr, String ns) {
    String url = client.getMasterUrl().toString().replaceAll("/+$", "") + gvr.collectionPath(ns);
    client.raw(
        url,
        "DELETE",
        new DeleteOptionsBuilder()
            .withApiVersion("v1")
            .withKind("DeleteOptions")
            .withPropagationPolicy("Background")
            .build());
  }

  private void deleteEachItem(Gvr gvr, String ns) {
    var op = client.genericKubernetesResources(gvr.context()).inNamespace(ns);
    for (GenericKubernetesResource o : op.list().getItems()) {
      try {
        op.withName(o.getMetadata().getName())
            .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND)
            .delete();
      } catch (KubernetesClientException e) {
        if (!ApiErrors.isNotFound(e)) {
          throw e;
        }
      }
    }
  }
}
