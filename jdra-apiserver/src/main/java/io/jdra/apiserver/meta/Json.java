package io.jdra.apiserver.meta;

import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** Shared JSON/YAML mappers and small tree helpers. Thread-safe. */
public final class Json {
  /**
   * The JSON mapper used for every stored object. Fractions and exponents are read as exact
   * decimals, as Go keeps a RawExtension's bytes: {@code 1e400} in opaque parameters stays that
   * number instead of turning into the string {@code "Infinity"} a double would print.
   */
  public static final JsonMapper MAPPER =
      JsonMapper.builder(uncanonicalized())
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .build();

  /**
   * A JSON factory whose parsers do not keep a shared table of property names. Managed fields hold
   * keys unique to one object (an owner reference's {@code k:{"uid":"..."}}): every such name
   * entered the shared table, whose per-parse copy then cost a stored claim's parse ten times its
   * work and 30 times its allocation (30 us and 365 KB against 3.5 us and 11 KB, measured).
   */
  public static JsonFactory uncanonicalized() {
    return JsonFactory.builder()
        .disable(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES)
        .build();
  }

  /**
   * Equal JSON values, numbers compared by value: a stored {@code 1} parsed back as an int equals
   * the {@code 1L} a model serialises, as two identical JSON documents should.
   */
  public static boolean sameValue(JsonNode a, JsonNode b) {
    // Jackson's equals with a comparator, walked here to stop at shared subtrees: a write's tree
    // holds the stored object's own values for most fields (JsonTest compares the two).
    return same(a, b, false);
  }

  /**
   * Whether the two trees write the same JSON: keys in the same order, equal strings and literals,
   * numbers of the same node class and value (a decimal's scale included), so that either may stand
   * for the other in a tree that is written out. Stops at shared subtrees.
   */
  public static boolean writtenAlike(JsonNode a, JsonNode b) {
    return same(a, b, true);
  }

  /**
   * The walk of {@link #sameValue} ({@code written} false: keys in any order, numbers by value) and
   * {@link #writtenAlike} ({@code written} true: keys in order, same node classes, a decimal's
   * scale), stopping at shared subtrees.
   */
  private static boolean same(JsonNode a, JsonNode b, boolean written) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null || (written && !sameClass(a, b))) {
      return false;
    }
    if (a instanceof ObjectNode x) {
      return b instanceof ObjectNode y
          && x.size() == y.size()
          && (written ? sameInOrder(x, y) : sameByKey(x, y));
    }
    if (a instanceof ArrayNode x) {
      if (!(b instanceof ArrayNode y) || x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!same(x.get(i), y.get(i), written)) {
          return false;
        }
      }
      return true;
    }
    if (!written) {
      return a.equals(NUMBERS_BY_VALUE, b);
    }
    if (a.isBigDecimal()) {
      return a.decimalValue().equals(b.decimalValue()); // 1.0 and 1.00 are written apart
    }
    return a.equals(b);
  }

  /**
   * Whether two nodes are of one class for {@link #writtenAlike}: any two objects are (a {@link
   * WrittenOnce}, such as the FieldsV1 of a managed-fields entry the server encoded, writes as a
   * plain object with its entries; a PUT that sends it back has it as a plain object).
   */
  private static boolean sameClass(JsonNode a, JsonNode b) {
    return a.getClass() == b.getClass() || (a instanceof ObjectNode && b instanceof ObjectNode);
  }

  /** Objects of the same size with the same keys, each value the same by value. */
  private static boolean sameByKey(ObjectNode x, ObjectNode y) {
    for (Map.Entry<String, JsonNode> e : x.properties()) {
      JsonNode other = y.get(e.getKey());
      if (other == null || !same(e.getValue(), other, false)) {
        return false;
      }
    }
    return true;
  }

  /** Objects of the same size with the same keys in the same order, each value written alike. */
  private static boolean sameInOrder(ObjectNode x, ObjectNode y) {
    var ys = y.properties().iterator();
    for (Map.Entry<String, JsonNode> e : x.properties()) {
      Map.Entry<String, JsonNode> f = ys.next();
      if (!e.getKey().equals(f.getKey()) || !same(e.getValue(), f.getValue(), true)) {
        return false;
      }
    }
    return true;
  }

  /** {@link #sameValue} as Jackson's equals with its comparator gives it (for tests). */
  static boolean sameValueByJackson(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == b;
    }
    return a.equals(NUMBERS_BY_VALUE, b);
  }

  private static final java.util.Comparator<JsonNode> NUMBERS_BY_VALUE =
      (x, y) -> {
        if (x.isNumber() && y.isNumber()) {
          return x.decimalValue().compareTo(y.decimalValue());
        }
        return x.equals(y) ? 0 : 1;
      };

  /** YAML input (application/yaml bodies). */
  public static final YAMLMapper YAML =
      YAMLMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  private Json() {}

  public static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  /** The object at {@code field}, created when absent or not an object. */
  public static ObjectNode child(ObjectNode parent, String field) {
    JsonNode n = parent.get(field);
    if (n instanceof ObjectNode o) {
      return o;
    }
    return parent.putObject(field);
  }

  /** The string at a dotted path, or null when absent or not a scalar. */
  public static String text(JsonNode node, String dottedPath) {
    JsonNode n = at(node, dottedPath);
    if (n == null || n.isNull() || n.isContainer() || n.isMissingNode()) {
      return null;
    }
    return n.asString();
  }

  /** The node at a dotted path, or null. */
  public static JsonNode at(JsonNode node, String dottedPath) {
    JsonNode n = node;
    int start = 0;
    while (n != null && start <= dottedPath.length()) {
      int dot = dottedPath.indexOf('.', start);
      String part = dot < 0 ? dottedPath.substring(start) : dottedPath.substring(start, dot);
      n = n.get(part);
      if (dot < 0) {
        break;
      }
      start = dot + 1;
    }
    return n;
  }

  /** A string-to-string map from an object node (labels, annotations). */
  public static Map<String, String> stringMap(JsonNode node) {
    if (node == null || !node.isObject() || node.isEmpty()) {
      return Map.of();
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      m.put(e.getKey(), e.getValue().isNull() ? "" : e.getValue().asString());
    }
    return m;
  }

  private static final ClassValue<ObjectReader> READERS =
      new ClassValue<>() {
        @Override
        protected ObjectReader computeValue(Class<?> type) {
          return MAPPER.readerFor(type);
        }
      };

  /**
   * A tree read into a model class, as {@code MAPPER.treeToValue} reads it, with the class's reader
   * built once rather than its type resolved on every call (admission decodes on every write).
   */
  public static <T> T treeToValue(JsonNode node, Class<T> type) {
    return READERS.get(type).readValue(node);
  }

  /**
   * The tree as {@link #MAPPER} writes it (most trees without its generator: {@link TreeBytes}).
   */
  public static byte[] bytes(JsonNode node) {
    byte[] b = TreeBytes.write(node);
    return b != null ? b : MAPPER.writeValueAsBytes(node);
  }

  /**
   * A tree's bytes as {@link #bytes} writes them.
   *
   * @param asParsed whether {@link #parseObject} of the bytes gives a tree identical to the written
   *     one, node classes and key order included (false when not known: fractions, for one)
   */
  public record Written(byte[] bytes, boolean asParsed) {}

  /** The tree's bytes, and whether parsing them gives the same tree. */
  public static Written written(JsonNode node) {
    Written w = TreeBytes.written(node);
    return w != null ? w : new Written(MAPPER.writeValueAsBytes(node), false);
  }

  /** The object {@code MAPPER.readTree(json)} gives, most without Jackson ({@link ByteTrees}). */
  public static ObjectNode parseObject(byte[] json) {
    ObjectNode read = ByteTrees.object(json);
    return read != null ? read : (ObjectNode) MAPPER.readTree(json);
  }
}
