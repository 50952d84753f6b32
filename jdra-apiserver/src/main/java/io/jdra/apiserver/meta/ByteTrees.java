package io.jdra.apiserver.meta;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON object read from UTF-8 bytes into the tree {@link Json#MAPPER} reads from them, for the
 * bodies and stored objects the server parses on every write: objects, arrays, ASCII strings (with
 * JSON's escapes), integers of up to 18 digits, booleans and nulls. Anything else (a fraction, a
 * byte beyond ASCII, a key given twice, deep nesting, anything Jackson would refuse) gives null and
 * is left to Jackson, whose answer (tree or error) stands.
 *
 * <p>Why not Jackson: the mapper's factory keeps no table of property names (see {@link
 * Json#uncanonicalized()}), and without one Jackson reads bytes through a UTF-8 {@code Reader} into
 * characters and parses those. Here keys are read from the bytes and taken from a small per-thread
 * table of recent keys (bounded, so the unique keys of managed fields only replace entries), which
 * also spares a string per key. {@code ByteTreesTest} compares the trees with Jackson's, node
 * classes and key order included. Not thread-safe per instance (one per thread).
 */
public final class ByteTrees {
  /** Nesting beyond this is left to Jackson, which enforces its own limit. */
  private static final int MAX_DEPTH = 64;

  /** Keys longer than this are left to Jackson (its name-length limit) and not remembered. */
  private static final int MAX_KEY = 256;

  /** Slots of the recent-keys table (a power of two). */
  private static final int KEY_SLOTS = 1024;

  private static final JsonNodeFactory NODES = Json.MAPPER.deserializationConfig().getNodeFactory();

  private static final ThreadLocal<ByteTrees> READERS = ThreadLocal.withInitial(ByteTrees::new);

  private final byte[][] keyBytes = new byte[KEY_SLOTS][];
  private final String[] keys = new String[KEY_SLOTS];
  private final StringBuilder chars = new StringBuilder();

  private byte[] in;
  private int pos;
  private int end;

  private ByteTrees() {}

  /**
   * The object {@code Json.MAPPER.readTree(json)} gives, or null when it is left to Jackson (also
   * for bad JSON, a key repeated in one object, or a root that is not an object).
   */
  public static ObjectNode object(byte[] json) {
    ByteTrees r = READERS.get();
    r.in = json;
    r.pos = 0;
    r.end = json.length;
    try {
      return r.root();
    } finally {
      r.in = null; // does not keep a body alive
    }
  }

  private ObjectNode root() {
    if (skipSpace() != '{') {
      return null;
    }
    pos++;
    ObjectNode o = object(1);
    if (o == null || skipSpace() != -1) {
      return null; // trailing content: Jackson's to refuse
    }
    return o;
  }

  /** The next byte after whitespace (not consumed), or -1 at the end. */
  private int skipSpace() {
    byte[] b = in;
    int p = pos;
    while (p < end) {
      byte c = b[p];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        pos = p;
        return c & 0xFF; // not -1, the end, for the byte 0xFF
      }
      p++;
    }
    pos = p;
    return -1;
  }

  /** An object's members after its '{', through its '}'; null when left to Jackson. */
  private ObjectNode object(int depth) {
    ObjectNode o = NODES.objectNode();
    int c = skipSpace();
    if (c == '}') {
      pos++;
      return o;
    }
    while (true) {
      if (c != '"') {
        return null;
      }
      pos++;
      String key = key();
      if (key == null || skipSpace() != ':') {
        return null;
      }
      pos++;
      JsonNode v = value(depth);
      if (v == null || o.replace(key, v) != null) {
        return null; // a repeated key: Jackson decides (refuses or keeps the last)
      }
      c = skipSpace();
      pos++;
      if (c == '}') {
        return o;
      }
      if (c != ',') {
        return null;
      }
      c = skipSpace();
    }
  }

  private ArrayNode array(int depth) {
    ArrayNode a = NODES.arrayNode();
    if (skipSpace() == ']') {
      pos++;
      return a;
    }
    while (true) {
      JsonNode v = value(depth);
      if (v == null) {
        return null;
      }
      a.add(v);
      int c = skipSpace();
      pos++;
      if (c == ']') {
        return a;
      }
      if (c != ',') {
        return null;
      }
    }
  }

  /** A value; null when left to Jackson. {@code depth} counts the containers around it. */
  private JsonNode value(int depth) {
    int c = skipSpace();
    switch (c) {
      case '"' -> {
        pos++;
        String s = string();
        return s == null ? null : NODES.stringNode(s);
      }
      case '{' -> {
        pos++;
        return depth >= MAX_DEPTH ? null : object(depth + 1);
      }
      case '[' -> {
        pos++;
        return depth >= MAX_DEPTH ? null : array(depth + 1);
      }
      case 't' -> {
        return literal("true") ? NODES.booleanNode(true) : null;
      }
      case 'f' -> {
        return literal("false") ? NODES.booleanNode(false) : null;
      }
      case 'n' -> {
        return literal("null") ? NODES.nullNode() : null;
      }
      default -> {
        return c == '-' || (c >= '0' && c <= '9') ? integer() : null;
      }
    }
  }

  /**
   * A literal's letters; what follows is checked by the caller, which accepts only a delimiter
   * (Jackson refuses {@code truex}, and so does the caller by returning null).
   */
  private boolean literal(String word) {
    int n = word.length();
    if (pos + n > end) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (in[pos + i] != word.charAt(i)) {
        return false;
      }
    }
    pos += n;
    return true;
  }

  /**
   * An integer as Jackson's tree holds it: an int node when the value fits in an int, else a long
   * node. Fractions, exponents, {@code -0}, leading zeros and more than 18 digits are Jackson's.
   */
  private JsonNode integer() {
    byte[] b = in;
    int p = pos;
    boolean negative = b[p] == '-';
    if (negative) {
      p++;
    }
    int start = p;
    long v = 0;
    while (p < end && b[p] >= '0' && b[p] <= '9') {
      v = v * 10 + (b[p] - '0');
      p++;
    }
    int digits = p - start;
    if (digits == 0 || digits > 18 || (b[start] == '0' && (digits > 1 || negative))) {
      return null;
    }
    if (p < end && (b[p] == '.' || b[p] == 'e' || b[p] == 'E')) {
      return null;
    }
    pos = p;
    long value = negative ? -v : v;
    return value == (int) value ? NODES.numberNode((int) value) : NODES.numberNode(value);
  }

  /**
   * A key after its opening quote, through its closing quote: the remembered string when the same
   * bytes were a key before on this thread (the bytes decide the string, escapes included).
   */
  private String key() {
    byte[] b = in;
    int start = pos;
    int h = 0;
    int p = start;
    boolean escapes = false;
    while (true) {
      if (p >= end || p - start > MAX_KEY) {
        return null;
      }
      byte c = b[p];
      if (c == '"') {
        break;
      }
      if (c == '\\') {
        escapes = true;
        h = 31 * h + c;
        p++; // the escaped character cannot end the key
        if (p >= end) {
          return null;
        }
        c = b[p];
      } else if (c < 0x20) { // negative: beyond ASCII
        return null;
      }
      h = 31 * h + c;
      p++;
    }
    int slot = (h ^ (h >>> 10)) & (KEY_SLOTS - 1);
    byte[] known = keyBytes[slot];
    if (known != null && Arrays.equals(known, 0, known.length, b, start, p)) {
      pos = p + 1;
      return keys[slot];
    }
    String key = escapes ? unescaped(start, p) : latin1(start, p);
    if (key != null) {
      pos = p + 1;
      keyBytes[slot] = Arrays.copyOfRange(b, start, p);
      keys[slot] = key;
    }
    return key;
  }

  /** A string value after its opening quote, through its closing quote; null for Jackson's. */
  private String string() {
    byte[] b = in;
    int start = pos;
    boolean escapes = false;
    for (int p = start; p < end; p++) {
      byte c = b[p];
      if (c == '"') {
        String s = escapes ? unescaped(start, p) : latin1(start, p);
        pos = p + 1;
        return s;
      }
      if (c == '\\') {
        escapes = true;
        p++; // the escaped character cannot end the string
      } else if (c < 0x20) { // negative: beyond ASCII
        return null;
      }
    }
    return null;
  }

  private String latin1(int start, int close) {
    return new String(in, start, close - start, StandardCharsets.ISO_8859_1);
  }

  /** The bytes {@code [start, close)} with their escapes replaced; null for a bad escape. */
  private String unescaped(int start, int close) {
    StringBuilder sb = chars;
    sb.setLength(0);
    int p = start;
    while (p < close) {
      byte c = in[p++];
      if (c != '\\') {
        sb.append((char) c);
        continue;
      }
      byte e = in[p++]; // there is one: the scan that found the close skipped it
      int ch = e == 'u' ? hex4(p, close) : unescape(e);
      if (ch < 0) {
        return null;
      }
      if (e == 'u') {
        p += 4;
      }
      sb.append((char) ch);
    }
    return sb.toString();
  }

  /** The character a one-letter escape stands for ({@code e} after the backslash), or -1. */
  private static int unescape(byte e) {
    return switch (e) {
      case '"' -> '"';
      case '\\' -> '\\';
      case '/' -> '/';
      case 'b' -> '\b';
      case 'f' -> '\f';
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      default -> -1;
    };
  }

  /** The four hex digits at {@code at}, before {@code close}, or -1. */
  private int hex4(int at, int close) {
    if (at + 4 > close) {
      return -1;
    }
    int v = 0;
    for (int i = at; i < at + 4; i++) {
      int d = Character.digit(in[i], 16);
      if (d < 0) {
        return -1;
      }
      v = v * 16 + d;
    }
    return v;
  }
}
