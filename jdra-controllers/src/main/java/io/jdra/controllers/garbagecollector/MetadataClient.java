package io.jdra.controllers.garbagecollector;

import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.jdra.controllers.controllerutil.ApiResources;
import io.jdra.controllers.controllerutil.ApiResources.Gvr;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The collector's reads and writes of any kind by its identity (upstream's metadata client plus the
 * REST mapper): a live GET, a DELETE with UID and resourceVersion preconditions, and JSON merge
 * patches of owner references and finalizers conditional on the resourceVersion read, so a write
 * never undoes a change it did not see. Thread-safe.
 */
final class MetadataClient {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final KubernetesClient client;
  private volatile ApiResources resources;

  MetadataClient(KubernetesClient client, ApiResources resources) {
    this.client = client;
    this.resources = resources;
  }

  /**
   * Maps kinds by a newer discovery (upstream resets its REST mapper when the served resources
   * change); resources of group versions whose discovery failed keep their earlier mapping.
   */
  void reset(ApiResources discovered) {
    List<Gvr> merged = new ArrayList<>(discovered.resources());
    for (Gvr old : resources.resources()) {
      if (discovered.failed(old) && !merged.contains(old)) {
        merged.add(old);
      }
    }
    resources = new ApiResources(merged, discovered.failedGroups());
  }

  /** The kind is not served (upstream's {@code restMappingError}); retried with backoff. */
  static final class RestMappingException extends RuntimeException {
    RestMappingException(ObjectIdentity id) {
      super("unable to get REST mapping for " + id.apiVersion() + "/" + id.kind());
    }
  }

  /**
   * A cluster-scoped object names a namespaced owner (upstream's {@code
   * namespacedOwnerOfClusterScopedObjectErr}): there is no namespace to look the owner up in, and
   * retrying cannot help, so the item is dropped from the queue and the object left alone.
   */
  static final class NamespacedOwnerOfClusterScopedObjectException extends RuntimeException {
    NamespacedOwnerOfClusterScopedObjectException(ObjectIdentity id) {
      super(
          "cluster-scoped objects cannot refer to namespaced owners: "
              + id.apiVersion()
              + "/"
              + id.kind()
              + " "
              + id.name(),
          null,
          false,
          false);
    }
  }

  Gvr mapping(ObjectIdentity id) {
    return resources
        .forKind(id.apiVersion(), id.kind())
        .orElseThrow(() -> new RestMappingException(id));
  }

  private Resource<GenericKubernetesResource> resource(ObjectIdentity id) {
    Gvr gvr = mapping(id);
    if (gvr.namespaced() && id.namespace().isEmpty()) {
      // Only a cluster-scoped object's reference gives a namespaced kind no namespace.
      throw new NamespacedOwnerOfClusterScopedObjectException(id);
    }
    var op = client.genericKubernetesResources(gvr.context());
    return gvr.namespaced()
        ? op.inNamespace(id.namespace()).withName(id.name())
        : op.withName(id.name());
  }

  /** The object now, or null when it does not exist. */
  ObjectMeta get(ObjectIdentity id) {
    GenericKubernetesResource o = resource(id).get();
    return o == null ? null : ObjectMeta.of(o);
  }

  /**
   * Deletes with the given propagation ({@code null}: the kind's default) if the object still has
   * {@code uid} and {@code resourceVersion}. Returns false when it is gone.
   *
   * @throws KubernetesClientException 409 when a precondition failed
   */
  boolean delete(ObjectIdentity id, String resourceVersion, String propagationPolicy) {
    Gvr gvr = mapping(id);
    DeleteOptions options =
        new DeleteOptionsBuilder()
            .withApiVersion("v1")
            .withKind("DeleteOptions")
            .withPropagationPolicy(propagationPolicy)
            .withNewPreconditions()
            .withUid(id.uid())
            .withResourceVersion(
                resourceVersion == null || resourceVersion.isEmpty() ? null : resourceVersion)
            .endPreconditions()
            .build();
    String url =
        client.getMasterUrl().toString().replaceAll("/+$", "")
            + gvr.objectPath(id.namespace(), id.name());
    try {
      // raw() answers null for 404.
      return client.raw(url, "DELETE", options) != null;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return false;
      }
      throw e;
    }
  }

  /** Sets the owner references to {@code owners} (empty: removes the field). */
  void patchOwners(ObjectIdentity id, String resourceVersion, List<OwnerReference> owners) {
    ObjectNode meta = patchMeta(id, resourceVersion);
    if (owners.isEmpty()) {
      meta.putNull("ownerReferences");
    } else {
      ArrayNode list = meta.putArray("ownerReferences");
      for (OwnerReference r : owners) {
        ObjectNode o = list.addObject();
        o.put("apiVersion", r.getApiVersion());
        o.put("kind", r.getKind());
        o.put("name", r.getName());
        o.put("uid", r.getUid());
        if (r.getController() != null) {
          o.put("controller", r.getController());
        }
        if (r.getBlockOwnerDeletion() != null) {
          o.put("blockOwnerDeletion", r.getBlockOwnerDeletion());
        }
      }
    }
    patch(id, meta);
  }

  /** Sets the finalizers to {@code finalizers}. */
  void patchFinalizers(ObjectIdentity id, String resourceVersion, List<String> finalizers) {
    ObjectNode meta = patchMeta(id, resourceVersion);
    ArrayNode list = meta.putArray("finalizers");
    finalizers.forEach(list::add);
    patch(id, meta);
  }

  private static ObjectNode patchMeta(ObjectIdentity id, String resourceVersion) {
    ObjectNode meta = JSON.createObjectNode();
    meta.put("uid", id.uid());
    meta.put("resourceVersion", resourceVersion);
    return meta;
  }

  private void patch(ObjectIdentity id, ObjectNode meta) {
    ObjectNode body = JSON.createObjectNode();
    body.set("metadata", meta);
    resource(id).patch(PatchContext.of(PatchType.JSON_MERGE), body.toString());
  }
}
