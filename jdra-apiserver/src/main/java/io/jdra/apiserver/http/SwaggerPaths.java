package io.jdra.apiserver.http;

import io.jdra.apiserver.patch.OpenApiSchemas;
import io.jdra.apiserver.registry.ResourceType;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Swagger 2.0 paths of one served kind: the collection (list, create, delete collection) and
 * the item (read, replace, patch, delete), each operation with {@code x-kubernetes-action}, {@code
 * x-kubernetes-group-version-kind}, upstream-style operation ids and the query parameters the
 * server honours (notably {@code fieldValidation}, which tells v2 readers the server validates
 * fields). Stateless.
 */
final class SwaggerPaths {
  private static final List<String> WRITE_PARAMS =
      List.of("dryRun", "fieldManager", "fieldValidation", "pretty");
  private static final List<String> PATCH_TYPES =
      List.of(
          "application/json-patch+json",
          "application/merge-patch+json",
          "application/strategic-merge-patch+json",
          "application/apply-patch+yaml");

  private SwaggerPaths() {}

  static void add(ObjectNode paths, ResourceType t, OpenApiSchemas.Gvk gvk) {
    String prefix =
        gvk.group().isEmpty()
            ? "/api/" + gvk.version()
            : "/apis/" + gvk.group() + "/" + gvk.version();
    String collection = prefix + (t.namespaced() ? "/namespaces/{namespace}/" : "/") + t.plural();
    String def = OpenApiSchemas.definitionName(gvk);
    String suffix = groupVersion(gvk) + (t.namespaced() ? "Namespaced" : "") + gvk.kind();

    ObjectNode c = paths.putObject(collection);
    pathParams(c, t.namespaced(), false);
    op(
        c,
        "get",
        "list",
        "list" + suffix,
        gvk,
        List.of(
            "labelSelector",
            "fieldSelector",
            "limit",
            "continue",
            "resourceVersion",
            "watch",
            "pretty"),
        null,
        "200");
    op(c, "post", "post", "create" + suffix, gvk, WRITE_PARAMS, def, "201");
    op(
        c,
        "delete",
        "deletecollection",
        "deleteCollection" + suffix,
        gvk,
        List.of(
            "labelSelector",
            "fieldSelector",
            "dryRun",
            "gracePeriodSeconds",
            "propagationPolicy",
            "pretty"),
        null,
        "200");

    ObjectNode i = paths.putObject(collection + "/{name}");
    pathParams(i, t.namespaced(), true);
    op(i, "get", "get", "read" + suffix, gvk, List.of("pretty"), null, "200");
    op(i, "put", "put", "replace" + suffix, gvk, WRITE_PARAMS, def, "200");
    ObjectNode patch =
        op(
            i,
            "patch",
            "patch",
            "patch" + suffix,
            gvk,
            List.of("dryRun", "fieldManager", "fieldValidation", "force", "pretty"),
            "io.k8s.apimachinery.pkg.apis.meta.v1.Patch",
            "200");
    ArrayNode consumes = patch.putArray("consumes");
    PATCH_TYPES.forEach(consumes::add);
    op(
        i,
        "delete",
        "delete",
        "delete" + suffix,
        gvk,
        List.of("dryRun", "gracePeriodSeconds", "propagationPolicy", "pretty"),
        null,
        "200");
  }

  /** E.g. CoreV1, AppsV1, ResourceV1beta2, as upstream's operation ids spell group versions. */
  static String groupVersion(OpenApiSchemas.Gvk gvk) {
    String g = gvk.group().isEmpty() ? "core" : gvk.group().replace(".k8s.io", "");
    StringBuilder sb = new StringBuilder();
    for (String part : g.split("\\.")) {
      sb.append(capitalize(part));
    }
    return sb.append(capitalize(gvk.version())).toString();
  }

  private static String capitalize(String s) {
    return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
  }

  private static void pathParams(ObjectNode path, boolean namespaced, boolean named) {
    ArrayNode params = path.putArray("parameters");
    if (named) {
      params
          .addObject()
          .put("name", "name")
          .put("in", "path")
          .put("required", true)
          .put("type", "string")
          .put("uniqueItems", true);
    }
    if (namespaced) {
      params
          .addObject()
          .put("name", "namespace")
          .put("in", "path")
          .put("required", true)
          .put("type", "string")
          .put("uniqueItems", true);
    }
  }

  private static ObjectNode op(
      ObjectNode path,
      String verb,
      String action,
      String id,
      OpenApiSchemas.Gvk gvk,
      List<String> query,
      String bodyDefinition,
      String status) {
    ObjectNode o = path.putObject(verb);
    o.put("operationId", id);
    o.putArray("consumes").add("*/*");
    o.putArray("produces").add("application/json").add("application/yaml");
    o.putArray("schemes").add("https");
    ArrayNode params = o.putArray("parameters");
    if (bodyDefinition != null) {
      ObjectNode body =
          params.addObject().put("name", "body").put("in", "body").put("required", true);
      body.putObject("schema").put("$ref", "#/definitions/" + bodyDefinition);
    }
    for (String q : query) {
      params
          .addObject()
          .put("name", q)
          .put("in", "query")
          .put("uniqueItems", true)
          .put("type", type(q));
    }
    o.putObject("responses")
        .putObject(status)
        .put("description", status.equals("201") ? "Created" : "OK");
    o.put("x-kubernetes-action", action);
    ObjectNode g = o.putObject("x-kubernetes-group-version-kind");
    g.put("group", gvk.group()).put("kind", gvk.kind()).put("version", gvk.version());
    return o;
  }

  private static String type(String param) {
    return switch (param) {
      case "force", "watch" -> "boolean";
      case "limit", "gracePeriodSeconds" -> "integer";
      default -> "string";
    };
  }
}
