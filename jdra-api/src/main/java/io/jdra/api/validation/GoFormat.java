package io.jdra.api.validation;

import tools.jackson.databind.json.JsonMapper;

/** Prints values the way upstream's Go code prints them in error messages. Stateless. */
public final class GoFormat {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private GoFormat() {}

  /** The bad value of an error as upstream {@code ErrorBody()} shows it. */
  static String value(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof String s) {
      return quote(s);
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Boolean || v instanceof Short) {
      return v.toString();
    }
    if (v instanceof Double || v instanceof Float) {
      return v.toString();
    }
    if (v instanceof FieldError.RawJson raw) {
      return raw.json();
    }
    return json(v);
  }

  /** JSON text of a value (Go's {@code json.Marshal}, with Go's HTML-safe escaping). */
  static String json(Object v) {
    if (v instanceof String s && plain(s)) {
      // Names, pools, drivers and devices: nothing to escape (every claim status write's device
      // IDs go through here, four strings each; the mapper costs a serializer lookup per call).
      return '"' + s + '"';
    }
    return jsonByMapper(v);
  }

  /**
   * Whether both the mapper and Go write the string as it is between quotes: printable ASCII
   * without a quote, a backslash or one of the characters Go escapes for HTML.
   */
  static boolean plain(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&') {
        return false;
      }
    }
    return true;
  }

  /** {@link #json} through the mapper: the general path (and the reference the tests use). */
  static String jsonByMapper(Object v) {
    try {
      String s = JSON.writeValueAsString(v);
      return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
    } catch (RuntimeException e) {
      return String.valueOf(v);
    }
  }

  /**
   * A string quoted like Go's {@code strconv.Quote} / {@code %q}: the one implementation every
   * module uses for messages that must read as upstream's.
   */
  public static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    s.codePoints().forEach(cp -> appendQuoted(sb, cp));
    return sb.append('"').toString();
  }

  private static void appendQuoted(StringBuilder sb, int cp) {
    switch (cp) {
      case '"' -> sb.append("\\\"");
      case '\\' -> sb.append("\\\\");
      case 7 -> sb.append("\\a");
      case '\b' -> sb.append("\\b");
      case '\f' -> sb.append("\\f");
      case '\n' -> sb.append("\\n");
      case '\r' -> sb.append("\\r");
      case '\t' -> sb.append("\\t");
      case 11 -> sb.append("\\v");
      default -> {
        if (isPrint(cp)) {
          sb.appendCodePoint(cp);
        } else if (cp < ' ' || cp == 0x7f) {
          sb.append(String.format("\\x%02x", cp));
        } else if (cp < 0x10000) {
          sb.append(String.format("\\u%04x", cp));
        } else {
          sb.append(String.format("\\U%08x", cp));
        }
      }
    }
  }

  /** Go's {@code unicode.IsPrint}: graphic characters plus the ASCII space. */
  static boolean isPrint(int cp) {
    if (cp == ' ') {
      return true;
    }
    if (Character.isISOControl(cp)) {
      return false;
    }
    return switch (Character.getType(cp)) {
      case Character.UNASSIGNED,
          Character.SURROGATE,
          Character.PRIVATE_USE,
          Character.FORMAT,
          Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR,
          Character.SPACE_SEPARATOR ->
          false;
      default -> true;
    };
  }
}
