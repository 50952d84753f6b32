package io.jdra.apiserver.meta;

import java.util.Arrays;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A JSON tree written to bytes exactly as {@link Json#MAPPER} writes it, for the trees every write
 * stores: objects, arrays, strings of printable ASCII, integers, booleans and nulls. Anything else
 * (a fraction, a string with a control or non-ASCII character, a binary or POJO node) is left to
 * Jackson, which gives this writer's answer null. Jackson's generator goes through several layers
 * per value (context checks, character buffers, its escape tables), which cost most under C1, the
 * compiler of {@code jdra bench}; here a value is a type test and a copy. {@code TreeBytesTest}
 * compares the two on the upstream example objects, stored pods and claims, and random strings. Not
 * thread-safe (one instance per call).
 */
final class TreeBytes {
  private byte[] buf = new byte[2048];
  private int len;

  private TreeBytes() {}

  /** The tree's bytes, or null when the tree holds a value this writer leaves to Jackson. */
  static byte[] write(JsonNode node) {
    TreeBytes w = new TreeBytes();
    return w.value(node) ? Arrays.copyOf(w.buf, w.len) : null;
  }

  private boolean value(JsonNode n) {
    switch (n.getNodeType()) {
      case OBJECT -> {
        return object(n);
      }
      case ARRAY -> {
        return array(n);
      }
      case STRING -> {
        return string(n.stringValue());
      }
      case NUMBER -> {
        return number(n);
      }
      case BOOLEAN -> {
        ascii(n.booleanValue() ? "true" : "false");
        return true;
      }
      case NULL -> {
        ascii("null");
        return true;
      }
      default -> {
        return false; // binary, POJO, missing: Jackson's business
      }
    }
  }

  private boolean object(JsonNode o) {
    put('{');
    boolean first = true;
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      if (!first) {
        put(',');
      }
      first = false;
      if (!string(e.getKey())) {
        return false;
      }
      put(':');
      if (!value(e.getValue())) {
        return false;
      }
    }
    put('}');
    return true;
  }

  private boolean array(JsonNode a) {
    put('[');
    int size = a.size();
    for (int i = 0; i < size; i++) {
      if (i > 0) {
        put(',');
      }
      if (!value(a.get(i))) {
        return false;
      }
    }
    put(']');
    return true;
  }

  private boolean number(JsonNode n) {
    if (n.isInt()) {
      ascii(Integer.toString(n.intValue()));
    } else if (n.isLong()) {
      ascii(Long.toString(n.longValue()));
    } else if (n.isBigInteger()) {
      ascii(n.bigIntegerValue().toString());
    } else {
      return false; // shorts, fractions: as Jackson formats them
    }
    return true;
  }

  /**
   * A quoted string; Jackson escapes only the quote, the backslash and control characters (left to
   * it here), and writes the rest of ASCII as it is.
   */
  private boolean string(String s) {
    int n = s.length();
    ensure(n + 2);
    byte[] b = buf;
    int at = len;
    b[at++] = '"';
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80 || c < 0x20) {
        return false;
      }
      if (c == '"' || c == '\\') {
        len = at;
        ensure(n - i + 2 + 1);
        b = buf;
        b[len++] = '\\';
        at = len;
      }
      b[at++] = (byte) c;
    }
    b[at++] = '"';
    len = at;
    return true;
  }

  private void ascii(String s) {
    int n = s.length();
    ensure(n);
    s.getBytes(0, n, buf, len); // ASCII only (numbers and literals): one byte per char
    len += n;
  }

  private void put(char c) {
    ensure(1);
    buf[len++] = (byte) c;
  }

  private void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }
  }
}
