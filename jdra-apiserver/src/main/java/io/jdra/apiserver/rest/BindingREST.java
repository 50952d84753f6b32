package io.jdra.apiserver.rest;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.storage.StoredObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code pods/binding}, upstream's {@code BindingREST}: sets {@code spec.nodeName} of a pod that is
 * not bound yet and not being deleted, and its {@code PodScheduled} condition. Stateless.
 */
public final class BindingREST {
  private BindingREST() {}

  /** Binds the pod; the future completes when the write is durable. */
  public static CompletableFuture<StoredObject> bind(
      ObjectService service,
      ResourceType pods,
      String namespace,
      String name,
      String node,
      WriteOptions opts) {
    String now = Names.timestamp(service.clock().instant());
    return service.guaranteedUpdate(
        pods,
        namespace,
        name,
        "binding",
        0,
        opts,
        current -> {
          if (current.at("/metadata/deletionTimestamp").isString()) {
            throw ApiException.conflict(
                pods,
                name + "/binding",
                "pod " + name + " is being deleted, cannot be assigned to a host");
          }
          String assigned = Json.text(current, "spec.nodeName");
          if (assigned != null && !assigned.isEmpty()) {
            throw new ApiException(
                409,
                "Conflict",
                "Operation cannot be fulfilled on pods/binding \""
                    + name
                    + "\": pod "
                    + name
                    + " is already assigned to node \""
                    + assigned
                    + "\"",
                name,
                "",
                "pods/binding",
                List.of());
          }
          // The current pod is shared with other writes: the binding changes a copy of what it
          // writes (the spec, which the registry copies, and the status), the rest is shared.
          ObjectNode pod = service.copyForWrite(pods, current);
          Json.child(pod, "spec").put("nodeName", node);
          if (pod.get("status") instanceof ObjectNode status) {
            pod.set("status", status.deepCopy());
          }
          setScheduled(Json.child(pod, "status"), now);
          return pod;
        },
        false,
        null);
  }

  private static void setScheduled(ObjectNode status, String now) {
    ArrayNode conds = status.withArray("conditions");
    for (JsonNode c : conds) {
      if ("PodScheduled".equals(c.path("type").asString(""))) {
        ((ObjectNode) c).put("status", "True");
        ((ObjectNode) c).put("lastTransitionTime", now);
        return;
      }
    }
    ObjectNode c = conds.addObject();
    c.put("type", "PodScheduled");
    c.put("status", "True");
    c.putNull("lastProbeTime");
    c.put("lastTransitionTime", now);
  }
}
