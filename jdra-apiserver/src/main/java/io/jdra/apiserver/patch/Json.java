package io.jdra.apiserver.patch;

import java.io.OutputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** JSON helpers shared by the patch engines: parsing, value equality and Go-style printing. */
final class Json {
  /**
   * Parsers without a shared table of property names: managed fields hold keys unique to one object
   * (an owner reference's {@code k:{"uid":"..."}}), and each such name made every parse copy the
   * table (the API server's {@code meta.Json} explains the numbers).
   */
  static final ObjectMapper MAPPER =
      JsonMapper.builder(
              tools.jackson.core.json.JsonFactory.builder()
                  .disable(
                      tools.jackson.core.TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES)
                  .build())
          .build();

  static final ObjectMapper YAML = YAMLMapper.builder().build();
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Json() {}

  /** Parses one JSON document; null when the bytes are not valid JSON. */
  static JsonNode parseOrNull(byte[] body) {
    try {
      JsonNode node = MAPPER.readTree(body);
      return node == null || node.isMissingNode() ? null : node;
    } catch (JacksonException e) {
      return null;
    }
  }

  static ObjectNode object() {
    return NODES.objectNode();
  }

  static ArrayNode array() {
    return NODES.arrayNode();
  }

  /**
   * Equality of two JSON values as decoded Go values compare: numbers by value (an integral 1 and
   * 1.0 differ as int64 and float64 do), objects regardless of key order.
   */
  static boolean same(JsonNode a, JsonNode b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    if (a.isNumber() && b.isNumber()) {
      if (a.isIntegralNumber() != b.isIntegralNumber()) {
        return false;
      }
      if (a.isIntegralNumber() && a.canConvertToLong() && b.canConvertToLong()) {
        return a.longValue() == b.longValue(); // as the BigIntegers compare, without making them
      }
      return a.isIntegralNumber()
          ? a.bigIntegerValue().equals(b.bigIntegerValue())
          : a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    if (a.getNodeType() != b.getNodeType()) {
      return false;
    }
    if (a.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (Map.Entry<String, JsonNode> e : a.properties()) {
        JsonNode bv = b.get(e.getKey()); // null when absent: an object holds no Java nulls
        if (bv == null || !same(e.getValue(), bv)) {
          return false;
        }
      }
      return true;
    }
    if (a.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!same(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  /**
   * Equality as values decoded into Go's interface{} with float64 numbers compare (what
   * evanphx/json-patch's test operation does): 1 equals 1.0.
   */
  static boolean sameNumbersLoose(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    if (a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (Map.Entry<String, JsonNode> e : a.properties()) {
        if (!b.has(e.getKey()) || !sameNumbersLoose(e.getValue(), b.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    if (a.isArray() && b.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!sameNumbersLoose(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    return same(a, b);
  }

  /** Formats a value as Go's {@code fmt} {@code %v} prints a decoded JSON value. */
  static String goValue(JsonNode n) {
    StringBuilder sb = new StringBuilder();
    appendGo(sb, n);
    return sb.toString();
  }

  private static void appendGo(StringBuilder sb, JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      sb.append("<nil>");
    } else if (n.isObject()) {
      List<String> keys = new ArrayList<>(n.propertyNames());
      Collections.sort(keys);
      sb.append("map[");
      for (int i = 0; i < keys.size(); i++) {
        if (i > 0) {
          sb.append(' ');
        }
        sb.append(keys.get(i)).append(':');
        appendGo(sb, n.get(keys.get(i)));
      }
      sb.append(']');
    } else if (n.isArray()) {
      sb.append('[');
      for (int i = 0; i < n.size(); i++) {
        if (i > 0) {
          sb.append(' ');
        }
        appendGo(sb, n.get(i));
      }
      sb.append(']');
    } else if (n.isString()) {
      sb.append(n.stringValue());
    } else if (n.isIntegralNumber()) {
      sb.append(n.bigIntegerValue());
    } else if (n.isNumber()) {
      sb.append(goFloat(n.doubleValue()));
    } else {
      sb.append(n.asString());
    }
  }

  /** Go's %v for a float64: shortest representation, exponent form outside [1e-4, 1e21). */
  static String goFloat(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e21) {
      return BigDecimal.valueOf(d).toBigInteger().toString();
    }
    double abs = Math.abs(d);
    if (abs >= 1e-4 && abs < 1e21) {
      return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
    String s = Double.toString(d); // e.g. 1.0E21, 1.5E-7
    int e = s.indexOf('E');
    String mant = s.substring(0, e);
    if (mant.endsWith(".0")) {
      mant = mant.substring(0, mant.length() - 2);
    }
    int exp = Integer.parseInt(s.substring(e + 1));
    return mant + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
  }

  /** Compact JSON text of a value. */
  static String write(JsonNode n) {
    return MAPPER.writeValueAsString(n);
  }

  /** The length of a value's compact JSON text, counted without keeping the text. */
  static long serializedSize(JsonNode n) {
    long[] count = {0};
    OutputStream counter =
        new OutputStream() {
          @Override
          public void write(int b) {
            count[0]++;
          }

          @Override
          public void write(byte[] b, int off, int len) {
            count[0] += len;
          }
        };
    MAPPER.writeValue(counter, n);
    return count[0];
  }
}
