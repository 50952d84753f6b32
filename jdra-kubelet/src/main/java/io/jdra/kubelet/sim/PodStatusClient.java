package io.jdra.kubelet.sim;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.client.ApiRequests;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The status manager's two requests per write, as upstream's syncPod sends them: a GET of the pod
 * and a strategic merge patch of its status subresource, through {@link ApiRequests} (the client's
 * own HTTP client, failures as the client's DSL throws them, 404 included). The pod is read as a
 * JSON tree, since the status manager works on the status as JSON, and the patched pod the server
 * returns is not decoded at all: decoding the pod into objects and converting it back, and the
 * answer only to drop it, was work for nothing on every pod start.
 */
final class PodStatusClient implements StatusManager.PodClient {
  private final ApiRequests.Resource<JsonNode> pods;
  private final ApiRequests.Resource<Void> statuses;

  PodStatusClient(KubernetesClient client) {
    ApiRequests api = new ApiRequests(client);
    this.pods = api.resource("v1", "pods", JsonNode.class);
    this.statuses = api.resource("v1", "pods", Void.class).subresource("status");
  }

  @Override
  public StatusManager.ServerPod get(String namespace, String name) {
    JsonNode pod = pods.get(namespace, name);
    if (pod == null) {
      return null;
    }
    JsonNode status = pod.get("status");
    return new StatusManager.ServerPod(
        pod.path("metadata").path("uid").asString(),
        status instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode());
  }

  @Override
  public void patchStatus(String namespace, String name, String patch) {
    statuses.patch(namespace, name, ApiRequests.Patch.strategicMerge(), patch);
  }
}
