package io.jdra.exampledriver.profiles;

import java.util.Map;

/** Type checks for decoding opaque configs from their JSON tree, with field paths in errors. */
final class Json {
  private Json() {}

  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object v, String path) {
    if (v instanceof Map<?, ?> m) {
      return (Map<String, Object>) m;
    }
    throw new IllegalArgumentException(path + ": expected an object, got " + describe(v));
  }

  static String string(Object v, String path) {
    if (v == null) {
      return "";
    }
    if (v instanceof String s) {
      return s;
    }
    throw new IllegalArgumentException(path + ": expected a string, got " + describe(v));
  }

  static int integer(Object v, String path) {
    if (v == null) {
      return 0;
    }
    if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
      if (n.longValue() > Integer.MAX_VALUE || n.longValue() < Integer.MIN_VALUE) {
        throw new IllegalArgumentException(path + ": " + n + " is out of range");
      }
      return n.intValue();
    }
    throw new IllegalArgumentException(path + ": expected an integer, got " + describe(v));
  }

  static long unsigned(Object v, String path) {
    if (v == null) {
      return 0;
    }
    if (v instanceof Number n
        && n.doubleValue() == Math.rint(n.doubleValue())
        && n.doubleValue() >= 0) {
      return n.longValue();
    }
    throw new IllegalArgumentException(path + ": expected an unsigned integer, got " + describe(v));
  }

  private static String describe(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof String s) {
      return "string \"" + s + "\"";
    }
    return v instanceof Map
        ? "an object"
        : v instanceof java.util.List ? "an array" : String.valueOf(v);
  }
}
