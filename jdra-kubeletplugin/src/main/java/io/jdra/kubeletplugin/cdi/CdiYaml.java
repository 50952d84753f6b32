package io.jdra.kubeletplugin.cdi;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Block YAML for the small trees of a CDI spec (maps with plain keys, lists, strings), in the
 * layout sigs.k8s.io/yaml gives them: two-space indentation, a list at its key's indentation,
 * {@code {}} and {@code []} for empty ones. Written by hand because a general YAML generator cost
 * more CPU than everything else a prepare does in the driver.
 *
 * <p>A string is written plain only where every YAML reader takes it back as the same string (no
 * indicator first, no {@code ": "} or {@code " #"}, not a number, boolean or null in YAML 1.1 or
 * 1.2); anything else is double-quoted with JSON's escapes, which YAML reads the same way.
 */
final class CdiYaml {
  private static final Pattern NUMBER =
      Pattern.compile(
          "[-+]?(\\.[0-9_]+|[0-9][0-9_]*(\\.[0-9_]*)?)([eE][-+]?[0-9]+)?"
              + "|[-+]?0[xXoObB][0-9a-fA-F_]+"
              + "|[-+]?\\.(inf|Inf|INF|nan|NaN|NAN)"
              + "|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?");
  private static final Set<String> RESERVED =
      Set.of("y", "n", "yes", "no", "on", "off", "true", "false", "null", "~");

  private CdiYaml() {}

  static String render(Map<String, Object> tree) {
    StringBuilder b = new StringBuilder(512);
    mapping(b, tree, 0, false);
    return b.toString();
  }

  private static void mapping(StringBuilder b, Map<?, ?> m, int indent, boolean inline) {
    boolean first = true;
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (!(first && inline)) {
        pad(b, indent);
      }
      first = false;
      b.append(e.getKey()).append(':');
      value(b, e.getValue(), indent);
    }
  }

  private static void value(StringBuilder b, Object v, int indent) {
    if (v instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        b.append(" {}\n");
      } else {
        b.append('\n');
        mapping(b, m, indent + 2, false);
      }
    } else if (v instanceof List<?> l) {
      if (l.isEmpty()) {
        b.append(" []\n");
      } else {
        b.append('\n');
        sequence(b, l, indent);
      }
    } else {
      b.append(' ');
      scalar(b, String.valueOf(v));
      b.append('\n');
    }
  }

  private static void sequence(StringBuilder b, List<?> l, int indent) {
    for (Object item : l) {
      pad(b, indent);
      b.append("- ");
      if (item instanceof Map<?, ?> m && !m.isEmpty()) {
        mapping(b, m, indent + 2, true);
      } else if (item instanceof Map<?, ?>) {
        b.append("{}\n");
      } else if (item instanceof List<?>) {
        throw new IllegalArgumentException("CDI spec: a list in a list cannot be written");
      } else {
        scalar(b, String.valueOf(item));
        b.append('\n');
      }
    }
  }

  static void scalar(StringBuilder b, String s) {
    if (plain(s)) {
      b.append(s);
      return;
    }
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        case '\r' -> b.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }

  static boolean plain(String s) {
    if (s.isEmpty() || !plainFirst(s.charAt(0))) {
      return false;
    }
    for (int i = 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!plainFirst(c) && " =:,+@-".indexOf(c) < 0) {
        return false;
      }
    }
    char first = s.charAt(0);
    char last = s.charAt(s.length() - 1);
    return last != ' '
        && last != ':'
        && !s.contains(": ")
        && !(s.length() <= 5 && RESERVED.contains(s.toLowerCase(java.util.Locale.ROOT)))
        && !((first >= '0' && first <= '9' || first == '.') && NUMBER.matcher(s).matches());
  }

  /** Characters a plain scalar may start with here (a subset of what YAML allows). */
  private static boolean plainFirst(char c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || c == '_'
        || c == '.'
        || c == '/';
  }

  private static void pad(StringBuilder b, int n) {
    for (int i = 0; i < n; i++) {
      b.append(' ');
    }
  }
}
