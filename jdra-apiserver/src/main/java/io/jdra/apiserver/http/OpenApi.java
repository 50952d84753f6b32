package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.patch.OpenApiSchemas;
import io.jdra.apiserver.registry.ResourceRegistry;
import io.jdra.apiserver.registry.ResourceType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * OpenAPI v3 (/openapi/v3 and one document per group/version): paths with their group-version-kind
 * and query parameters, so kubectl sees that the server validates fields itself (fieldValidation)
 * and skips client-side schema validation, and component schemas of the served kinds for {@code
 * kubectl explain}. Patch operations declare no request body, so kubectl apply keeps computing
 * strategic merge patches from its compiled-in types. Documents are built once per group/version
 * and cached; the index links them with a content hash so clients' caches stay correct.
 * Thread-safe; returned trees must not be modified.
 */
final class OpenApi {
  private static final List<String> PATCH_PARAMS =
      List.of("dryRun", "fieldManager", "fieldValidation", "force", "pretty");

  private final ResourceRegistry registry;
  private final Map<String, ObjectNode> documents = new ConcurrentHashMap<>();
  private volatile ObjectNode root;
  private volatile ObjectNode swagger;

  OpenApi(ResourceRegistry registry) {
    this.registry = registry;
  }

  ObjectNode root() {
    ObjectNode r = root;
    if (r == null) {
      r = buildRoot();
      root = r;
    }
    return r;
  }

  private ObjectNode buildRoot() {
    ObjectNode o = Json.object();
    ObjectNode paths = o.putObject("paths");
    for (Map.Entry<String, List<String>> g : registry.groupVersions().entrySet()) {
      for (String v : g.getValue()) {
        String key = g.getKey().isEmpty() ? "api/" + v : "apis/" + g.getKey() + "/" + v;
        ObjectNode doc = groupVersion(key);
        String hash = doc == null ? "0" : hash(doc);
        paths.putObject(key).put("serverRelativeURL", "/openapi/v3/" + key + "?hash=" + hash);
      }
    }
    return o;
  }

  /**
   * The Swagger 2.0 document of {@code /openapi/v2}: every served kind's definition, named as
   * upstream's ({@code io.k8s.api.core.v1.Pod}) with {@code x-kubernetes-group-version-kind}, and
   * its paths with {@code x-kubernetes-action}, for clients and tools that still read v2 as JSON.
   */
  ObjectNode swagger() {
    ObjectNode s = swagger;
    if (s == null) {
      s = buildSwagger();
      swagger = s;
    }
    return s;
  }

  private ObjectNode buildSwagger() {
    ObjectNode doc = Json.object();
    doc.put("swagger", "2.0");
    doc.putObject("info").put("title", "Kubernetes").put("version", "v1.36.0");
    ObjectNode paths = doc.putObject("paths");
    List<OpenApiSchemas.Gvk> kinds = new ArrayList<>();
    for (Map.Entry<String, List<String>> g : registry.groupVersions().entrySet()) {
      for (String v : g.getValue()) {
        for (ResourceType t : registry.inGroupVersion(g.getKey(), v)) {
          OpenApiSchemas.Gvk gvk = new OpenApiSchemas.Gvk(g.getKey(), v, t.kind());
          kinds.add(gvk);
          SwaggerPaths.add(paths, t, gvk);
        }
      }
    }
    doc.set("definitions", OpenApiSchemas.swaggerDefinitions(kinds));
    return doc;
  }

  /** The document of {@code api/v1} or {@code apis/GROUP/VERSION}; null when not served. */
  ObjectNode groupVersion(String gv) {
    ObjectNode doc = documents.get(gv);
    if (doc == null) {
      // Only served group/versions are cached, so arbitrary request paths cannot grow the map.
      doc = build(gv);
      if (doc != null) {
        ObjectNode raced = documents.putIfAbsent(gv, doc);
        doc = raced != null ? raced : doc;
      }
    }
    return doc;
  }

  private static String hash(ObjectNode doc) {
    try {
      byte[] d =
          MessageDigest.getInstance("SHA-256")
              .digest(doc.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().withUpperCase().formatHex(d, 0, 32);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private ObjectNode build(String gv) {
    String group;
    String version;
    String[] p = gv.split("/");
    if (p.length == 2 && p[0].equals("api")) {
      group = "";
      version = p[1];
    } else if (p.length == 3 && p[0].equals("apis")) {
      group = p[1];
      version = p[2];
    } else {
      return null;
    }
    List<ResourceType> types = registry.inGroupVersion(group, version);
    if (types.isEmpty()) {
      return null;
    }
    ObjectNode doc = Json.object();
    doc.put("openapi", "3.0.0");
    doc.putObject("info").put("title", "Kubernetes").put("version", "v1.36.0");
    ObjectNode paths = doc.putObject("paths");
    String prefix = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
    for (ResourceType t : types) {
      String base =
          prefix + (t.namespaced() ? "/namespaces/{namespace}/" : "/") + t.plural() + "/{name}";
      ObjectNode item = paths.putObject(base);
      for (String verb : List.of("get", "put", "patch", "delete")) {
        ObjectNode op = item.putObject(verb);
        op.put("operationId", verb + t.kind());
        ObjectNode gvk = op.putObject("x-kubernetes-group-version-kind");
        gvk.put("group", group);
        gvk.put("kind", t.kind());
        gvk.put("version", version);
        ArrayNode params = op.putArray("parameters");
        for (String name : verb.equals("get") ? List.of("pretty") : PATCH_PARAMS) {
          ObjectNode param = params.addObject();
          param.put("name", name);
          param.put("in", "query");
          param.putObject("schema").put("type", name.equals("force") ? "boolean" : "string");
        }
        op.putObject("responses").putObject("200").put("description", "OK");
      }
      String collection = prefix + (t.namespaced() ? "/namespaces/{namespace}/" : "/") + t.plural();
      ObjectNode post = paths.putObject(collection).putObject("post");
      post.put("operationId", "create" + t.kind());
      ObjectNode gvk = post.putObject("x-kubernetes-group-version-kind");
      gvk.put("group", group);
      gvk.put("kind", t.kind());
      gvk.put("version", version);
      ArrayNode params = post.putArray("parameters");
      for (String name : List.of("dryRun", "fieldManager", "fieldValidation", "pretty")) {
        params
            .addObject()
            .put("name", name)
            .put("in", "query")
            .putObject("schema")
            .put("type", "string");
      }
      post.putObject("responses").putObject("201").put("description", "Created");
    }
    List<OpenApiSchemas.Gvk> kinds = new ArrayList<>();
    for (ResourceType t : types) {
      kinds.add(new OpenApiSchemas.Gvk(group, version, t.kind()));
    }
    doc.putObject("components").set("schemas", OpenApiSchemas.componentSchemas(kinds));
    return doc;
  }
}
