package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Cause;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.storage.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code scale} subresource of Deployments and ReplicaSets (upstream's {@code ScaleREST} in
 * {@code pkg/registry/apps/deployment/storage} and {@code .../replicaset/storage}): an {@code
 * autoscaling/v1} Scale whose {@code spec.replicas} is the object's and whose status has its {@code
 * status.replicas} and selector as a string. GET reads it; PUT and merge or strategic merge PATCH
 * (the same for a Scale, which has no lists) change only {@code spec.replicas}, with the Scale's
 * resourceVersion, when given, as precondition. Stateless.
 */
final class ScaleSubresource {
  static final String SCALE = "scale";
  private static final List<String> PATCH_TYPES =
      List.of("application/merge-patch+json", "application/strategic-merge-patch+json");

  private ScaleSubresource() {}

  static void handle(ObjectService service, ResourceHandler handler, Request r) {
    switch (r.http().method().name()) {
      case "GET" -> {
        StoredObject o = service.get(r.type(), r.namespace(), r.name());
        Responses.json(r.http(), 200, scale(Json.parseObject(o.json())));
      }
      case "PUT" -> {
        ObjectNode body =
            Bodies.parse(
                r.body().getBytes(), r.http().getHeader("Content-Type"), "autoscaling/v1", "Scale");
        write(service, handler, r, current -> body);
      }
      case "PATCH" -> {
        String contentType = Bodies.mediaType(r.http().getHeader("Content-Type"));
        if (!PATCH_TYPES.contains(contentType)) {
          throw ApiException.unsupportedMediaType(contentType, PATCH_TYPES);
        }
        JsonNode patch = Json.parseObject(r.body().getBytes());
        write(service, handler, r, current -> merge(current, patch));
      }
      default ->
          throw ApiException.methodNotAllowed(
              r.http().method().name(), r.type().plural() + "/" + SCALE);
    }
  }

  /** Applies the Scale that {@code desired} makes of the current one to the object. */
  private static void write(
      ObjectService service,
      ResourceHandler handler,
      Request r,
      java.util.function.UnaryOperator<ObjectNode> desired) {
    CompletableFuture<StoredObject> f =
        service.guaranteedUpdate(
            r.type(),
            r.namespace(),
            r.name(),
            "",
            0,
            handler.writeOptions(r),
            current -> {
              ObjectNode want = desired.apply(scale(current));
              String rv = Json.text(want, "metadata.resourceVersion");
              JsonNode replicas = Json.at(want, "spec.replicas");
              int n = replicas == null || replicas.isNull() ? 0 : replicas.asInt();
              if (replicas != null && !replicas.isIntegralNumber()) {
                throw ApiException.badRequest(
                    "spec.replicas: expected an integer, got " + replicas);
              }
              if (n < 0) {
                throw ApiException.invalid(
                    r.type(),
                    r.name(),
                    List.of(
                        new Cause(
                            "FieldValueInvalid",
                            "Invalid value: " + n + ": must be greater than or equal to 0",
                            "spec.replicas")));
              }
              Json.child(current, "spec").put("replicas", n);
              if (rv != null && !rv.isEmpty()) {
                // A Scale read at another version is a stale precondition: 409, as upstream.
                Json.child(current, "metadata").put("resourceVersion", rv);
              }
              return current;
            },
            true,
            SCALE);
    ResourceHandler.respond(
        r, f, (resp, o) -> Responses.json(resp, 200, scale(Json.parseObject(o.json()))));
  }

  /** The object's Scale. */
  static ObjectNode scale(ObjectNode obj) {
    ObjectNode s = Json.object();
    s.put("kind", "Scale");
    s.put("apiVersion", "autoscaling/v1");
    ObjectNode meta = s.putObject("metadata");
    for (String f : List.of("name", "namespace", "uid", "resourceVersion", "creationTimestamp")) {
      JsonNode v = Json.at(obj, "metadata." + f);
      if (v != null) {
        meta.set(f, v.deepCopy());
      }
    }
    JsonNode replicas = Json.at(obj, "spec.replicas");
    s.putObject("spec").put("replicas", replicas == null ? 1 : replicas.asInt());
    ObjectNode status = s.putObject("status");
    JsonNode current = Json.at(obj, "status.replicas");
    status.put("replicas", current == null ? 0 : current.asInt());
    status.put("selector", formatSelector(Json.at(obj, "spec.selector")));
    return s;
  }

  /** Upstream's {@code metav1.FormatLabelSelector} (labels first, sorted, then expressions). */
  static String formatSelector(JsonNode selector) {
    if (selector == null || selector.isNull()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    Map<String, String> labels =
        new java.util.TreeMap<>(Json.stringMap(selector.get("matchLabels")));
    labels.forEach((k, v) -> parts.add(k + "=" + v));
    JsonNode exprs = selector.get("matchExpressions");
    if (exprs != null && exprs.isArray()) {
      for (JsonNode e : exprs) {
        String key = e.path("key").asString("");
        List<String> values = new ArrayList<>();
        e.path("values").forEach(v -> values.add(v.asString()));
        values.sort(null);
        parts.add(
            switch (e.path("operator").asString("")) {
              case "In" -> key + " in (" + String.join(",", values) + ")";
              case "NotIn" -> key + " notin (" + String.join(",", values) + ")";
              case "Exists" -> key;
              case "DoesNotExist" -> "!" + key;
              default -> key;
            });
      }
    }
    return String.join(",", parts);
  }

  /** RFC 7386 merge; for a Scale also what a strategic merge patch does. */
  static ObjectNode merge(ObjectNode target, JsonNode patch) {
    if (!patch.isObject()) {
      throw ApiException.badRequest("a patch of a Scale must be a JSON object");
    }
    ObjectNode out = target.deepCopy();
    for (Map.Entry<String, JsonNode> e : patch.properties()) {
      JsonNode v = e.getValue();
      if (v.isNull()) {
        out.remove(e.getKey());
      } else if (v.isObject() && out.get(e.getKey()) instanceof ObjectNode o) {
        out.set(e.getKey(), merge(o, v));
      } else {
        out.set(e.getKey(), v.deepCopy());
      }
    }
    return out;
  }
}
