package io.jdra.cli.logging;

/** Rendering of log values shared by the text and JSON layouts. */
final class Values {
  private Values() {}

  /** Text format: numbers and booleans bare, everything else as a quoted string. */
  static void appendText(StringBuilder b, Object value) {
    if (value instanceof Number || value instanceof Boolean) {
      b.append(value);
    } else {
      appendQuoted(b, String.valueOf(value));
    }
  }

  /** JSON format: numbers, booleans and null bare, everything else as a JSON string. */
  static void appendJson(StringBuilder b, Object value) {
    if (value == null) {
      b.append("null");
    } else if (value instanceof Number n && Double.isFinite(n.doubleValue())
        || value instanceof Boolean) {
      b.append(value);
    } else {
      appendQuoted(b, String.valueOf(value));
    }
  }

  /** A JSON string literal (also klog's quoting of messages and string values). */
  static void appendQuoted(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }
}
