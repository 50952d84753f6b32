package io.jdra.apiserver.auth;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.storage.Storage;
import io.jdra.apiserver.storage.StoredObject;
import java.nio.charset.StandardCharsets;
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
    return anyPodOnNode(node, namespace, claim, pod -> usesClaim(pod, claim));
  }

  @Override
  public boolean referencedOnNode(String node, String namespace, boolean secret, String name) {
    return anyPodOnNode(node, namespace, name, pod -> references(pod, secret, name));
  }

  /**
   * Whether a pod bound to the node passes {@code test}. Only pods whose JSON contains {@code
   * "name"} at all are parsed: a kubelet asks once per claim and pod start, and most pods on a node
   * are not the one asked about.
   */
  private boolean anyPodOnNode(
      String node, String namespace, String name, java.util.function.Predicate<JsonNode> test) {
    byte[] quoted = ("\"" + name + "\"").getBytes(StandardCharsets.UTF_8);
    var pods =
        storage
            .store(PODS)
            .list(
                namespace,
                null,
                p -> node.equals(p.fields().get(NODE_NAME)) && contains(p.json(), quoted),
                0)
            .items();
    for (StoredObject p : pods) {
      if (test.test(Json.parseObject(p.json()))) {
        return true;
      }
    }
    return false;
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static boolean references(JsonNode pod, boolean secret, String name) {
    JsonNode spec = pod.path("spec");
    if (secret) {
      for (JsonNode s : spec.path("imagePullSecrets")) {
        if (name.equals(s.path("name").asString(""))) {
          return true;
        }
      }
    }
    for (JsonNode v : spec.path("volumes")) {
      String direct =
          secret
              ? v.path("secret").path("secretName").asString("")
              : v.path("configMap").path("name").asString("");
      if (name.equals(direct)) {
        return true;
      }
      for (JsonNode src : v.path("projected").path("sources")) {
        if (name.equals(src.path(secret ? "secret" : "configMap").path("name").asString(""))) {
          return true;
        }
      }
    }
    for (String list : new String[] {"initContainers", "containers", "ephemeralContainers"}) {
      for (JsonNode c : spec.path(list)) {
        for (JsonNode from : c.path("envFrom")) {
          String ref = secret ? "secretRef" : "configMapRef";
          if (name.equals(from.path(ref).path("name").asString(""))) {
            return true;
          }
        }
        for (JsonNode e : c.path("env")) {
          String ref = secret ? "secretKeyRef" : "configMapKeyRef";
          if (name.equals(e.path("valueFrom").path(ref).path("name").asString(""))) {
            return true;
          }
        }
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
