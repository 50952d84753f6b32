package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Cause;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.rest.BindingREST;
import io.jdra.apiserver.rest.DeleteOptions;
import io.jdra.apiserver.rest.EvictionREST;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.rest.WriteOptions;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * POST pods/NAME/binding and pods/NAME/eviction: reads the Binding or Eviction body and answers;
 * what they do is {@link BindingREST}'s and {@link EvictionREST}'s. Stateless.
 */
final class PodSubresources {
  private PodSubresources() {}

  static void post(ObjectService service, Request r, ResourceHandler h) {
    switch (r.subresource()) {
      case "binding" -> bind(service, r);
      case "eviction" -> evict(service, r);
      default -> throw ApiException.pathNotFound();
    }
  }

  private static void bind(ObjectService service, Request r) {
    ObjectNode b = FieldValidation.subresourceBody(r, "v1", "Binding");
    String node = Json.text(b, "target.name");
    if (node == null || node.isEmpty()) {
      throw ApiException.invalid(
          r.type(),
          r.name(),
          List.of(new Cause("FieldValueRequired", "Required value", "target.name")));
    }
    var f =
        BindingREST.bind(
            service, r.type(), r.namespace(), r.name(), node, WriteOptions.DEFAULT.by(r.user()));
    ResourceHandler.respond(r, f, (resp, o) -> Responses.json(resp, 201, created()));
  }

  private static void evict(ObjectService service, Request r) {
    ObjectNode b = FieldValidation.subresourceBody(r, "policy/v1", "Eviction");
    JsonNode grace = b.at("/deleteOptions/gracePeriodSeconds");
    DeleteOptions o =
        new DeleteOptions(
            grace.isNumber() ? grace.asLong() : null,
            Json.text(b, "deleteOptions.propagationPolicy"),
            Json.text(b, "deleteOptions.preconditions.uid"),
            Json.text(b, "deleteOptions.preconditions.resourceVersion"),
            false,
            r.user());
    ResourceHandler.respond(
        r,
        EvictionREST.evict(service, r.type(), r.namespace(), r.name(), b, o),
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
