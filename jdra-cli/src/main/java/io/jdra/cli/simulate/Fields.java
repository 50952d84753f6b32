package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Typed reads of YAML fields for {@link ScenarioReader}: each records a problem with the field's
 * path when the value is missing or wrong, and returns a fallback, so that one pass finds every
 * problem of a file.
 */
final class Fields {
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  private final List<String> problems = new ArrayList<>();

  List<String> problems() {
    return problems;
  }

  void problem(String path, String message) {
    problems.add((path.isEmpty() ? "" : path + ": ") + message);
  }

  boolean isObject(JsonNode n, String path) {
    if (n == null || !n.isObject()) {
      problem(path, "must be a mapping");
      return false;
    }
    return true;
  }

  void fields(JsonNode n, String path, String... allowed) {
    List<String> ok = List.of(allowed);
    for (String f : n.propertyNames()) {
      if (!ok.contains(f)) {
        problem(
            path.isEmpty() ? f : path + "." + f,
            "unknown field (known: " + String.join(", ", ok) + ")");
      }
    }
  }

  void checkName(String name, String path) {
    if (name != null && (!NAME.matcher(name).matches() || name.length() > 40)) {
      problem(
          path,
          "\""
              + name
              + "\" must be lower case letters, digits and '-', start and end with a letter or"
              + " digit, at most 40 characters");
    }
  }

  String string(JsonNode n, String field, String path, String dflt) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return dflt;
    }
    if (!v.isString()) {
      problem(join(path, field), "must be a string");
      return dflt;
    }
    return v.asString();
  }

  long integer(JsonNode n, String field, String path, long dflt, long min) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return dflt;
    }
    if (!v.isIntegralNumber()) {
      problem(join(path, field), "must be an integer");
      return dflt;
    }
    long x = v.asLong();
    if (x < min) {
      problem(join(path, field), "must be " + (min == 1 ? "> 0" : ">= " + min));
      return dflt;
    }
    return x;
  }

  Duration duration(JsonNode n, String field, String path, Duration dflt, boolean positive) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return dflt;
    }
    Duration d = parseDuration(v.asString(), join(path, field));
    if (d != null && positive && d.isZero()) {
      problem(join(path, field), "must be > 0");
      return dflt;
    }
    return d == null ? dflt : d;
  }

  Duration parseDuration(String s, String path) {
    try {
      return Durations.parse(s);
    } catch (IllegalArgumentException e) {
      problem(path, e.getMessage());
      return null;
    }
  }

  Map<String, Quantity> quantities(JsonNode n, String field, String path) {
    Map<String, Quantity> out = new LinkedHashMap<>();
    JsonNode m = object(n, field, path, false);
    if (m == null) {
      return out;
    }
    for (Map.Entry<String, JsonNode> e : m.properties()) {
      String p = join(path, field) + "." + e.getKey();
      try {
        out.put(
            e.getKey(), io.jdra.api.quantity.Quantity.parse(e.getValue().asString()).toFabric8());
      } catch (RuntimeException ex) {
        problem(p, "not a quantity: \"" + e.getValue().asString() + "\"");
      }
    }
    return out;
  }

  JsonNode object(JsonNode n, String field, String path, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        problem(join(path, field), "required");
      }
      return null;
    }
    if (!v.isObject()) {
      problem(join(path, field), "must be a mapping");
      return null;
    }
    return v;
  }

  JsonNode array(JsonNode n, String field, String path, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        problem(join(path, field), "required");
      }
      return null;
    }
    if (!v.isArray()) {
      problem(join(path, field), "must be a list");
      return null;
    }
    return v;
  }

  static String join(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }
}
