package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceRegistry;
import io.jdra.apiserver.registry.ResourceType;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Discovery documents: /version, classic /api, /apis and group/version resource lists, and
 * aggregated discovery (apidiscovery.k8s.io/v2). Built once; immutable.
 */
final class Discovery {
  static final String AGGREGATED_TYPE =
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
  private static final List<String> VERBS =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");
  private static final List<String> SUB_VERBS = List.of("get", "patch", "update");

  private final ResourceRegistry registry;

  Discovery(ResourceRegistry registry) {
    this.registry = registry;
  }

  static ObjectNode version() {
    ObjectNode v = Json.object();
    v.put("major", "1");
    v.put("minor", "36");
    v.put("emulationMajor", "1");
    v.put("emulationMinor", "36");
    v.put("gitVersion", "v1.36.0-jdra");
    v.put("gitCommit", "0000000000000000000000000000000000000000");
    v.put("gitTreeState", "clean");
    v.put("buildDate", "2026-01-01T00:00:00Z");
    v.put("goVersion", "java" + Runtime.version().feature());
    v.put("compiler", "jdra");
    v.put("platform", "linux/amd64");
    return v;
  }

  ObjectNode coreVersions() {
    ObjectNode o = Json.object();
    o.put("kind", "APIVersions");
    o.putArray("versions").add("v1");
    ObjectNode addr = o.putArray("serverAddressByClientCIDRs").addObject();
    addr.put("clientCIDR", "0.0.0.0/0");
    addr.put("serverAddress", "127.0.0.1");
    return o;
  }

  ObjectNode groups() {
    ObjectNode o = Json.object();
    o.put("kind", "APIGroupList");
    o.put("apiVersion", "v1");
    ArrayNode groups = o.putArray("groups");
    for (Map.Entry<String, List<String>> g : registry.groupVersions().entrySet()) {
      if (!g.getKey().isEmpty()) {
        groups.add(group(g.getKey(), g.getValue()));
      }
    }
    return o;
  }

  /** APIGroup for one group, or null when not served. */
  ObjectNode group(String name) {
    List<String> versions = registry.groupVersions().get(name);
    if (versions == null || name.isEmpty()) {
      return null;
    }
    ObjectNode g = group(name, versions);
    g.put("kind", "APIGroup");
    g.put("apiVersion", "v1");
    return g;
  }

  private static ObjectNode group(String name, List<String> versions) {
    ObjectNode g = Json.object();
    g.put("name", name);
    ArrayNode vs = g.putArray("versions");
    for (String v : versions) {
      ObjectNode gv = vs.addObject();
      gv.put("groupVersion", name + "/" + v);
      gv.put("version", v);
    }
    ObjectNode pref = g.putObject("preferredVersion");
    pref.put("groupVersion", name + "/" + versions.get(0));
    pref.put("version", versions.get(0));
    return g;
  }

  /** APIResourceList of a group/version, or null when not served. */
  ObjectNode resources(String group, String version) {
    List<ResourceType> types = registry.inGroupVersion(group, version);
    if (types.isEmpty()) {
      return null;
    }
    ObjectNode o = Json.object();
    o.put("kind", "APIResourceList");
    o.put("apiVersion", "v1");
    o.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
    ArrayNode rs = o.putArray("resources");
    for (ResourceType t : types) {
      ObjectNode r = rs.addObject();
      r.put("name", t.plural());
      r.put("singularName", t.singular());
      r.put("namespaced", t.namespaced());
      r.put("kind", t.kind());
      strings(r.putArray("verbs"), VERBS);
      if (!t.shortNames().isEmpty()) {
        strings(r.putArray("shortNames"), t.shortNames());
      }
      if (!t.categories().isEmpty()) {
        strings(r.putArray("categories"), t.categories());
      }
      for (String sub : t.subresources().stream().sorted().toList()) {
        ObjectNode s = rs.addObject();
        s.put("name", t.plural() + "/" + sub);
        s.put("singularName", "");
        s.put("namespaced", t.namespaced());
        s.put("kind", subKind(t, sub));
        if (sub.equals("scale")) {
          // autoscaling/v1 Scale, as upstream's discovery says
          s.put("group", "autoscaling");
          s.put("version", "v1");
        }
        strings(s.putArray("verbs"), subVerbs(sub));
      }
    }
    return o;
  }

  private static String subKind(ResourceType t, String sub) {
    return switch (sub) {
      case "binding" -> "Binding";
      case "eviction" -> "Eviction";
      case "scale" -> "Scale";
      default -> t.kind();
    };
  }

  private static List<String> subVerbs(String sub) {
    return switch (sub) {
      case "binding", "eviction" -> List.of("create");
      case "log" -> List.of("get");
      case "finalize" -> List.of("update");
      default -> SUB_VERBS;
    };
  }

  /** Aggregated discovery for /api (core) or /apis (all other groups). */
  ObjectNode aggregated(boolean core) {
    ObjectNode o = Json.object();
    o.put("kind", "APIGroupDiscoveryList");
    o.put("apiVersion", "apidiscovery.k8s.io/v2");
    o.putObject("metadata");
    ArrayNode items = o.putArray("items");
    for (Map.Entry<String, List<String>> g : registry.groupVersions().entrySet()) {
      if (g.getKey().isEmpty() != core) {
        continue;
      }
      ObjectNode item = items.addObject();
      ObjectNode meta = item.putObject("metadata");
      if (!core) {
        meta.put("name", g.getKey());
      }
      ArrayNode versions = item.putArray("versions");
      for (String v : g.getValue()) {
        ObjectNode ver = versions.addObject();
        ver.put("version", v);
        ArrayNode rs = ver.putArray("resources");
        for (ResourceType t : registry.inGroupVersion(g.getKey(), v)) {
          rs.add(aggregatedResource(t, v));
        }
        ver.put("freshness", "Current");
      }
    }
    return o;
  }

  private static ObjectNode aggregatedResource(ResourceType t, String version) {
    ObjectNode r = Json.object();
    r.put("resource", t.plural());
    r.set("responseKind", kind(t.group(), version, t.kind()));
    r.put("scope", t.namespaced() ? "Namespaced" : "Cluster");
    r.put("singularResource", t.singular());
    strings(r.putArray("verbs"), VERBS);
    if (!t.shortNames().isEmpty()) {
      strings(r.putArray("shortNames"), t.shortNames());
    }
    if (!t.categories().isEmpty()) {
      strings(r.putArray("categories"), t.categories());
    }
    if (!t.subresources().isEmpty()) {
      ArrayNode subs = r.putArray("subresources");
      for (String sub : t.subresources().stream().sorted().toList()) {
        ObjectNode s = subs.addObject();
        s.put("subresource", sub);
        s.set(
            "responseKind",
            sub.equals("scale")
                ? kind("autoscaling", "v1", "Scale")
                : kind(t.group(), version, subKind(t, sub)));
        strings(s.putArray("verbs"), subVerbs(sub));
      }
    }
    return r;
  }

  private static ObjectNode kind(String group, String version, String kind) {
    ObjectNode k = Json.object();
    k.put("group", group);
    k.put("version", version);
    k.put("kind", kind);
    return k;
  }

  private static void strings(ArrayNode a, List<String> values) {
    values.forEach(a::add);
  }
}
