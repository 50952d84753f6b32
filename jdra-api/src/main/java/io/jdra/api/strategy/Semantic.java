package io.jdra.api.strategy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Equality of API values as the wire sees them (upstream {@code apiequality.Semantic.DeepEqual} for
 * our purposes): null, empty lists and empty maps are all "absent", so a fabric8 object that was
 * built (null collections) equals one that was decoded (empty collections). Quantities are compared
 * by their serialised text, which is stricter than upstream ({@code 1Gi} differs from {@code
 * 1024Mi}).
 */
final class Semantic {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private Semantic() {}

  static boolean equal(Object a, Object b) {
    return Objects.equals(normalize(a), normalize(b));
  }

  private static Object normalize(Object value) {
    return value == null ? null : plain(MAPPER.valueToTree(value));
  }

  /** Plain Java form of a JSON tree without null or empty members; null when absent. */
  private static Object plain(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isObject()) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        Object v = plain(e.getValue());
        if (v != null) {
          out.put(e.getKey(), v);
        }
      }
      return out.isEmpty() ? null : out;
    }
    if (node.isArray()) {
      List<Object> out = new ArrayList<>();
      node.forEach(n -> out.add(plain(n)));
      return out.isEmpty() ? null : out;
    }
    if (node.isNumber()) {
      return node.decimalValue().stripTrailingZeros();
    }
    return node.asString();
  }
}
