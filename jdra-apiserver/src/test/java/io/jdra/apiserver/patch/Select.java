package io.jdra.apiserver.patch;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/** Test helper: a tiny path selector ("spec.containers[0].env", "a.b[*].name"). */
final class Select {
  private Select() {}

  static JsonNode at(JsonNode root, String path) {
    if (path.isEmpty()) {
      return root;
    }
    JsonNode cur = root;
    for (String part : path.split("\\.")) {
      String name = part;
      String index = null;
      int b = part.indexOf('[');
      if (b >= 0) {
        name = part.substring(0, b);
        index = part.substring(b + 1, part.length() - 1);
      }
      cur = field(cur, name);
      if (index != null) {
        if ("*".equals(index)) {
          return star(cur, path.substring(path.indexOf("[*]") + 3));
        }
        cur = cur == null ? null : cur.get(Integer.parseInt(index));
      }
    }
    return cur;
  }

  private static JsonNode field(JsonNode cur, String name) {
    if (cur == null) {
      return null;
    }
    JsonNode n = cur.get(name);
    return n == null ? Json.NODES.missingNode() : n;
  }

  private static JsonNode star(JsonNode list, String rest) {
    ArrayNode out = Json.array();
    String r = rest.startsWith(".") ? rest.substring(1) : rest;
    for (JsonNode e : list) {
      out.add(r.isEmpty() ? e : at(e, r));
    }
    return out;
  }

  static JsonNode yaml(String s) {
    return Json.YAML.readTree(s);
  }
}
