package io.jdra.apiserver.meta;

import java.util.Arrays;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.BigIntegerNode;
import tools.jackson.databind.node.BooleanNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.LongNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

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
  /** Buffers kept per thread (the event loops write every stored object) up to this size. */
  private static final int KEPT = 64 * 1024;

  private static final ThreadLocal<TreeBytes> BUFFERS = ThreadLocal.withInitial(TreeBytes::new);

  /** Slots of the remembered keys (a power of two), and the longest key remembered. */
  private static final int KEY_SLOTS = 512;

  private static final int MAX_KEY = 128;

  private final String[] keys = new String[KEY_SLOTS];
  private final byte[][] keyBytes = new byte[KEY_SLOTS][];

  private byte[] buf = new byte[8192];
  private char[] chars = new char[256];
  private int len;

  /**
   * Whether every integer so far has the node class the parser gives its value (an int when it fits
   * in one, else a long when it fits, else a big integer).
   */
  private boolean asParsed;

  private TreeBytes() {}

  /** The tree's bytes, or null when the tree holds a value this writer leaves to Jackson. */
  static byte[] write(JsonNode node) {
    Json.Written w = written(node);
    return w == null ? null : w.bytes();
  }

  /** As {@link #write}, telling also whether parsing the bytes gives back the tree's classes. */
  static Json.Written written(JsonNode node) {
    TreeBytes w = BUFFERS.get();
    w.len = 0;
    w.asParsed = true;
    boolean done = w.value(node);
    Json.Written out = done ? new Json.Written(Arrays.copyOf(w.buf, w.len), w.asParsed) : null;
    if (w.buf.length > KEPT) {
      w.buf = new byte[8192]; // one huge object does not pin its buffer
    }
    if (w.chars.length > KEPT) {
      w.chars = new char[256];
    }
    return out;
  }

  private boolean value(JsonNode n) {
    // instanceof tests for the usual nodes: cheaper than the node type's switch under C1
    if (n instanceof ObjectNode o) {
      return o instanceof WrittenOnce w ? writtenOnce(w) : object(o);
    }
    if (n instanceof ArrayNode a) {
      return array(a);
    }
    if (n instanceof StringNode s) {
      return string(s.stringValue());
    }
    if (n instanceof IntNode i) {
      ascii(Integer.toString(i.intValue()));
      return true;
    }
    if (n instanceof BooleanNode b) {
      ascii(b.booleanValue() ? "true" : "false");
      return true;
    }
    if (n instanceof LongNode l) {
      long v = l.longValue();
      asParsed &= v < Integer.MIN_VALUE || v > Integer.MAX_VALUE;
      ascii(Long.toString(v));
      return true;
    }
    if (n instanceof NullNode) {
      ascii("null");
      return true;
    }
    if (n instanceof BigIntegerNode b) {
      asParsed &= b.bigIntegerValue().bitLength() > 63; // beyond a long
      ascii(b.bigIntegerValue().toString());
      return true;
    }
    return false; // fractions, shorts, binary, POJO, missing: as Jackson writes them
  }

  private boolean object(ObjectNode o) {
    put('{');
    boolean first = true;
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      if (!first) {
        put(',');
      }
      first = false;
      if (!key(e.getKey())) {
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

  /**
   * A node written once: its bytes copied, or written and kept when they hold only what parses back
   * alike (so that {@link #asParsed} needs no record of them).
   */
  private boolean writtenOnce(WrittenOnce w) {
    byte[] kept = w.bytes();
    if (kept != null) {
      assert Arrays.equals(kept, fresh(w)) : "a WrittenOnce node changed after it was written";
      ensure(kept.length);
      System.arraycopy(kept, 0, buf, len, kept.length);
      len += kept.length;
      return true;
    }
    int start = len;
    boolean before = asParsed;
    asParsed = true;
    boolean done = object(w);
    if (done && asParsed) {
      w.bytes(Arrays.copyOfRange(buf, start, len));
    }
    asParsed &= before;
    return done;
  }

  /** The node's bytes written anew (for the assertion above), on a writer of its own. */
  private static byte[] fresh(WrittenOnce w) {
    TreeBytes other = new TreeBytes();
    other.asParsed = true;
    other.object(w);
    return Arrays.copyOf(other.buf, other.len);
  }

  private boolean array(ArrayNode a) {
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

  /**
   * A key, quoted: its bytes copied from those last written for an equal key in its slot, else
   * written and remembered there. Most keys are few and repeat in every object (field names, which
   * {@link ByteTrees} and the code's constants also share as strings, so that their hash codes are
   * already known and equals finds them identical).
   */
  private boolean key(String k) {
    int h = k.hashCode();
    int slot = (h ^ (h >>> 12)) & (KEY_SLOTS - 1);
    String known = keys[slot];
    if (known == k || k.equals(known)) {
      byte[] b = keyBytes[slot];
      ensure(b.length);
      System.arraycopy(b, 0, buf, len, b.length);
      len += b.length;
      return true;
    }
    int start = len;
    if (!string(k)) {
      return false;
    }
    if (len - start <= MAX_KEY) {
      keyBytes[slot] = Arrays.copyOfRange(buf, start, len);
      keys[slot] = k;
    }
    return true;
  }

  /**
   * A quoted string; Jackson escapes only the quote, the backslash and control characters (left to
   * it here), and writes the rest of ASCII as it is. The characters are copied out first: array
   * reads cost less than a call per character under C1.
   */
  private boolean string(String s) {
    int n = s.length();
    if (chars.length < n) {
      chars = new char[Math.max(n, chars.length * 2)];
    }
    char[] c = chars;
    s.getChars(0, n, c, 0);
    ensure(2 * n + 2); // every character escaped at worst
    byte[] b = buf;
    int at = len;
    b[at++] = '"';
    for (int i = 0; i < n; i++) {
      char ch = c[i];
      if (ch >= 0x80 || ch < 0x20) {
        return false;
      }
      if (ch == '"' || ch == '\\') {
        b[at++] = '\\';
      }
      b[at++] = (byte) ch;
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
