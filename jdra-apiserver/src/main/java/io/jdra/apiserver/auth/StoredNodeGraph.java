package io.jdra.apiserver.auth;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.storage.Storage;
import io.jdra.apiserver.storage.StoredObject;
import tools.jackson.databind.JsonNode;

/**
 * {@link NodeGraph} read from storage at the time of the question: pods and slices by their {@code
 * spec.nodeName} field (kept with every stored object), claims through the pods of the claim's
 * namespace that are bound to the node. A claim check parses only those pods, which is what
 * upstream's graph edges amount to without keeping a second copy of them.
 */
public final class StoredNodeGraph implements NodeGraph {
  private static final String PODS = "/pods";
  private static final String SLICES = "resource.k8s.io/resourceslices";
  private static final String NODE_NAME = "spec.nodeName";

  private final Storage storage;

  public StoredNodeGraph(Storage storage) {
    this.storage = storage;
  }

  @Override
  public boolean podOnNode(String node, String namespace, String pod) {
    StoredObject p = storage.store(PODS).get(namespace, pod);
    return p != null && node.equals(p.fields().get(NODE_NAME));
  }

  @Override
  public boolean claimUsedOnNode(String node, String namespace, String claim) {
    var pods =
        storage
            .store(PODS)
            .list(namespace, null, p -> node.equals(p.fields().get(NODE_NAME)), 0)
            .items();
    for (StoredObject p : pods) {
      if (usesClaim(Json.parseObject(p.json()), claim)) {
        return true;
      }
    }
    return false;
  }

  private static boolean usesClaim(JsonNode pod, String claim) {
    for (JsonNode c : pod.at("/spec/resourceClaims")) {
      if (claim.equals(c.path("resourceClaimName").asString(""))) {
        return true;
      }
    }
    for (JsonNode s : pod.at("/status/resourceClaimStatuses")) {
      if (claim.equals(s.path("resourceClaimName").asString(""))) {
        return true;
      }
    }
    return claim.equals(
        pod.at("/status/extendedResourceClaimStatus/resourceClaimName").asString(""));
  }

  @Override
  public boolean sliceOfNode(String node, String slice) {
    StoredObject s = storage.store(SLICES).get("", slice);
    return s != null && node.equals(s.fields().get(NODE_NAME));
  }
}
