package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.rest.DeleteOptions;
import io.jdra.apiserver.rest.Names;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.rest.WriteOptions;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** POST pods/NAME/binding (the scheduler's bind) and pods/NAME/eviction. Stateless. */
final class PodSubresources {
  private PodSubresources() {}

  static void post(ObjectService service, Request r, ResourceHandler h) {
    switch (r.subresource()) {
      case "binding" -> bind(service, r, h);
      case "eviction" -> evict(service, r, h);
      default -> throw ApiException.pathNotFound();
    }
  }

  private static void bind(ObjectService service, Request r, ResourceHandler h) {
    ObjectNode b = FieldValidation.subresourceBody(r, "v1", "Binding");
    String node = Json.text(b, "target.name");
    if (node == null || node.isEmpty()) {
      throw ApiException.invalid(
          r.type(),
          r.name(),
          List.of(
              new io.jdra.apiserver.meta.Cause(
                  "FieldValueRequired", "Required value", "target.name")));
    }
    String now = Names.timestamp(service.clock().instant());
    var f =
        service.guaranteedUpdate(
            r.type(),
            r.namespace(),
            r.name(),
            "binding",
            0,
            WriteOptions.DEFAULT,
            pod -> {
              if (pod.at("/metadata/deletionTimestamp").isString()) {
                throw ApiException.conflict(
                    r.type(),
                    r.name() + "/binding",
                    "pod " + r.name() + " is being deleted, cannot be assigned to a host");
              }
              String current = Json.text(pod, "spec.nodeName");
              if (current != null && !current.isEmpty()) {
                throw new ApiException(
                    409,
                    "Conflict",
                    "Operation cannot be fulfilled on pods/binding \""
                        + r.name()
                        + "\": pod "
                        + r.name()
                        + " is already assigned to node \""
                        + current
                        + "\"",
                    r.name(),
                    "",
                    "pods/binding",
                    List.of());
              }
              Json.child(pod, "spec").put("nodeName", node);
              setScheduled(Json.child(pod, "status"), now);
              return pod;
            });
    ResourceHandler.respond(r, f, (resp, o) -> Responses.json(resp, 201, created()));
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

  private static void evict(ObjectService service, Request r, ResourceHandler h) {
    ObjectNode b = FieldValidation.subresourceBody(r, "policy/v1", "Eviction");
    JsonNode grace = b.at("/deleteOptions/gracePeriodSeconds");
    DeleteOptions o =
        new DeleteOptions(
            grace.isNumber() ? grace.asLong() : null,
            Json.text(b, "deleteOptions.propagationPolicy"),
            Json.text(b, "deleteOptions.preconditions.uid"),
            Json.text(b, "deleteOptions.preconditions.resourceVersion"),
            false);
    ResourceHandler.respond(
        r,
        service.delete(r.type(), r.namespace(), r.name(), o),
        (resp, res) -> Responses.json(resp, 201, created()));
  }

  private static ObjectNode created() {
    ObjectNode s = Json.object();
    s.put("kind", "Status");
    s.put("apiVersion", "v1");
    s.putObject("metadata");
    s.put("status", "Success");
    s.put("code", 201);
    return s;
  }
}
