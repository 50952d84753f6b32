package io.jdra.apiserver.patch;

import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Test helpers: objects from compact YAML, JSON bytes. */
final class Yaml {
  private Yaml() {}

  static ObjectNode obj(String yaml) {
    JsonNode n = Json.YAML.readTree(yaml);
    return n == null || n.isMissingNode() || n.isNull() ? Json.object() : (ObjectNode) n;
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
