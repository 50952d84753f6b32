package io.jdra.apiserver.patch;

import io.jdra.api.validation.GoFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A path into an object as structured-merge-diff names it: struct fields and map keys ({@code
 * .name}), list-map items by key ({@code [name="c"]}), set items by value ({@code [="a"]}) and
 * atomic-free list positions ({@code [0]}). Immutable, ordered as upstream orders paths.
 */
final class FieldPath implements Comparable<FieldPath> {
  static final FieldPath ROOT = new FieldPath(new Element[0]);

  private final Element[] els;
  private int hash;

  FieldPath(List<Element> elements) {
    this(elements.toArray(new Element[0]));
  }

  private FieldPath(Element[] els) {
    this.els = els;
  }

  /** The elements (an unmodifiable view). */
  List<Element> elements() {
    return Collections.unmodifiableList(Arrays.asList(els));
  }

  FieldPath child(Element e) {
    Element[] a = Arrays.copyOf(els, els.length + 1);
    a[els.length] = e;
    return new FieldPath(a);
  }

  int size() {
    return els.length;
  }

  /** This path with element {@code i} replaced by {@code e}. */
  FieldPath with(int i, Element e) {
    Element[] a = els.clone();
    a[i] = e;
    return new FieldPath(a);
  }

  /** True when this path is other or starts with it. */
  boolean startsWith(FieldPath other) {
    if (other.els.length > els.length) {
      return false;
    }
    for (int i = 0; i < other.els.length; i++) {
      if (!els[i].equals(other.els[i])) {
        return false;
      }
    }
    return true;
  }

  /** The element at {@code i}. */
  Element element(int i) {
    return els[i];
  }

  @Override
  public int compareTo(FieldPath o) {
    int n = Math.min(els.length, o.els.length);
    for (int i = 0; i < n; i++) {
      // paths made from one parent share its elements: those compare equal without a look
      if (els[i] != o.els[i]) {
        int c = els[i].compareTo(o.els[i]);
        if (c != 0) {
          return c;
        }
      }
    }
    return Integer.compare(els.length, o.els.length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldPath p && Arrays.equals(els, p.els);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Arrays.hashCode(els);
      hash = h;
    }
    return h;
  }

  /** As upstream's fieldpath.Path.String(): {@code .spec.containers[name="c"].image}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (Element e : els) {
      sb.append(e.display());
    }
    return sb.toString();
  }

  /** One step of a path. Order: fields, then keys, then values, then indexes. */
  sealed interface Element extends Comparable<Element> {
    int rank();

    String display();

    /** The fieldsV1 key: {@code f:name}, {@code k:{...}}, {@code v:...}, {@code i:0}. */
    String encode();

    @Override
    default int compareTo(Element o) {
      // field names first: most elements are fields (tests, not a type switch, which costs a
      // call through a bootstrap method on every comparison)
      if (this instanceof Field f && o instanceof Field g) {
        return f.name.compareTo(g.name);
      }
      if (rank() != o.rank()) {
        return Integer.compare(rank(), o.rank());
      }
      if (this instanceof Key k) {
        return compareKeys(k.fields, ((Key) o).fields);
      }
      if (this instanceof Value v) {
        return compareValues(v.value, ((Value) o).value);
      }
      return Integer.compare(((Index) this).index, ((Index) o).index);
    }
  }

  record Field(String name) implements Element {
    @Override
    public int rank() {
      return 0;
    }

    @Override
    public String display() {
      return "." + name;
    }

    @Override
    public String encode() {
      return "f:" + name;
    }
  }

  /**
   * A list-map item key: key field names (sorted) to values. The map is the key's own: every maker
   * passes a new one.
   */
  record Key(TreeMap<String, JsonNode> fields) implements Element {

    static Key of(JsonNode item, List<String> keyNames) {
      return of(item, keyNames, Map.of());
    }

    /** The key of a list-map item; absent key fields take their schema default, if any. */
    static Key of(JsonNode item, List<String> keyNames, Map<String, JsonNode> defaults) {
      TreeMap<String, JsonNode> m = new TreeMap<>();
      for (String k : keyNames) {
        JsonNode v = item.get(k);
        if (v == null || v.isNull()) {
          v = defaults.get(k);
        }
        if (v != null) {
          m.put(k, v);
        }
      }
      return new Key(m);
    }

    @Override
    public int rank() {
      return 1;
    }

    @Override
    public String display() {
      List<String> parts = new ArrayList<>();
      fields.forEach((k, v) -> parts.add(k + "=" + valueString(v)));
      return "[" + String.join(",", parts) + "]";
    }

    @Override
    public String encode() {
      String plain = plainStrings(fields);
      if (plain != null) {
        return plain;
      }
      ObjectNode o = Json.object();
      fields.forEach(o::set);
      return "k:" + Json.write(o);
    }

    /**
     * The encoding of a key whose names and values are strings that JSON writes as they are
     * (printable ASCII but for quote, backslash and slash), spelled without the JSON writer: a
     * container's or an owner reference's key, on every managed-fields encoding. Null otherwise.
     */
    private static String plainStrings(TreeMap<String, JsonNode> fields) {
      StringBuilder sb = new StringBuilder(64).append("k:{");
      for (Map.Entry<String, JsonNode> e : fields.entrySet()) {
        JsonNode v = e.getValue();
        if (!v.isString() || !plain(e.getKey()) || !plain(v.stringValue())) {
          return null;
        }
        if (sb.length() > 3) {
          sb.append(',');
        }
        sb.append('"').append(e.getKey()).append("\":\"").append(v.stringValue()).append('"');
      }
      return sb.append('}').toString();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && compareKeys(fields, k.fields) == 0;
    }

    @Override
    public int hashCode() {
      int h = 0;
      for (Map.Entry<String, JsonNode> e : fields.entrySet()) {
        h = 31 * h + e.getKey().hashCode() + valueHash(e.getValue());
      }
      return h;
    }
  }

  /** A set item. */
  record Value(JsonNode value) implements Element {
    @Override
    public int rank() {
      return 2;
    }

    @Override
    public String display() {
      return "[=" + valueString(value) + "]";
    }

    @Override
    public String encode() {
      if (value.isString() && written(value.stringValue())) {
        // a finalizer's or a plain string's item, on every managed-fields encoding: spelled
        // without the JSON writer, which writes such a string as it is
        return "v:\"" + value.stringValue() + "\"";
      }
      return "v:" + Json.write(value);
    }

    /** Whether the JSON writer writes {@code s} without escapes: printable ASCII but " and \. */
    static boolean written(String s) {
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
          return false;
        }
      }
      return true;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Value v && compareValues(value, v.value) == 0;
    }

    @Override
    public int hashCode() {
      return valueHash(value);
    }
  }

  record Index(int index) implements Element {
    @Override
    public int rank() {
      return 3;
    }

    @Override
    public String display() {
      return "[" + index + "]";
    }

    @Override
    public String encode() {
      return "i:" + index;
    }
  }

  /** A hash consistent with {@link #compareValues} equality (numbers by value). */
  static int valueHash(JsonNode v) {
    if (v == null) {
      return 0;
    } else if (v.isString()) {
      return v.stringValue().hashCode();
    } else if (v.isNumber()) {
      return v.decimalValue().stripTrailingZeros().hashCode();
    } else if (v.isBoolean()) {
      return Boolean.hashCode(v.booleanValue());
    }
    return v.size();
  }

  /** Decodes one fieldsV1 key; null for "." (the node itself). */
  static Element decode(String key) {
    if (".".equals(key)) {
      return null;
    }
    if (key.length() < 2 || key.charAt(1) != ':') {
      throw new IllegalArgumentException("unknown path element: " + key);
    }
    String rest = key.substring(2);
    return switch (key.charAt(0)) {
      case 'f' -> new Field(rest);
      case 'k' -> {
        TreeMap<String, JsonNode> plain = plainKey(rest);
        if (plain != null) {
          yield new Key(plain);
        }
        JsonNode n = Json.MAPPER.readTree(rest);
        if (!n.isObject()) {
          throw new IllegalArgumentException("bad key: " + key);
        }
        TreeMap<String, JsonNode> m = new TreeMap<>();
        for (Map.Entry<String, JsonNode> e : n.properties()) {
          m.put(e.getKey(), e.getValue());
        }
        yield new Key(m);
      }
      case 'v' -> new Value(Json.MAPPER.readTree(rest));
      case 'i' -> new Index(Integer.parseInt(rest));
      default -> throw new IllegalArgumentException("unknown path element: " + key);
    };
  }

  /** Whether JSON writes the string as it is: printable ASCII but quote, backslash and slash. */
  static boolean plain(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '/') {
        return false;
      }
    }
    return true;
  }

  /**
   * The fields of a key encoding {@code {"name":"value",...}} whose names and values are {@link
   * #plain} strings, read without the JSON parser (what it reads them as: the last of a repeated
   * name wins); null for anything else, which the parser then reads.
   */
  static TreeMap<String, JsonNode> plainKey(String json) {
    int n = json.length();
    if (n < 2 || json.charAt(0) != '{' || json.charAt(n - 1) != '}') {
      return null;
    }
    TreeMap<String, JsonNode> m = new TreeMap<>();
    int i = 1;
    if (i == n - 1) {
      return m;
    }
    while (true) {
      int nameEnd = plainString(json, i);
      if (nameEnd < 0 || nameEnd >= n || json.charAt(nameEnd) != ':') {
        return null;
      }
      int valueEnd = plainString(json, nameEnd + 1);
      if (valueEnd < 0) {
        return null;
      }
      m.put(
          json.substring(i + 1, nameEnd - 1),
          Json.NODES.stringNode(json.substring(nameEnd + 2, valueEnd - 1)));
      if (valueEnd == n - 1) {
        return m;
      }
      if (json.charAt(valueEnd) != ',') {
        return null;
      }
      i = valueEnd + 1;
    }
  }

  /** The index after a {@link #plain} quoted string starting at {@code from}, or -1. */
  private static int plainString(String s, int from) {
    if (from >= s.length() || s.charAt(from) != '"') {
      return -1;
    }
    for (int i = from + 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"') {
        return i + 1;
      }
      if (c < 0x20 || c > 0x7e || c == '\\' || c == '/') {
        return -1;
      }
    }
    return -1;
  }

  /** Upstream value.ToString: strings Go-quoted, other scalars as JSON. */
  static String valueString(JsonNode v) {
    if (v.isString()) {
      return GoFormat.quote(v.stringValue());
    }
    if (v.isNumber() && !v.isIntegralNumber()) {
      return Json.goFloat(v.doubleValue());
    }
    return Json.write(v);
  }

  static int compareKeys(Map<String, JsonNode> a, Map<String, JsonNode> b) {
    Iterator<Map.Entry<String, JsonNode>> ia = a.entrySet().iterator();
    Iterator<Map.Entry<String, JsonNode>> ib = b.entrySet().iterator();
    while (ia.hasNext() && ib.hasNext()) {
      Map.Entry<String, JsonNode> ea = ia.next();
      Map.Entry<String, JsonNode> eb = ib.next();
      int c = ea.getKey().compareTo(eb.getKey());
      if (c != 0) {
        return c;
      }
      c = compareValues(ea.getValue(), eb.getValue());
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  /** A total order of JSON values: numbers, strings, booleans, lists, maps, null. */
  static int compareValues(JsonNode a, JsonNode b) {
    int ra = valueRank(a);
    int rb = valueRank(b);
    if (ra != rb) {
      return Integer.compare(ra, rb);
    }
    return switch (ra) {
      case 0 -> a.decimalValue().compareTo(b.decimalValue());
      case 1 -> a.stringValue().compareTo(b.stringValue());
      case 2 -> Boolean.compare(a.booleanValue(), b.booleanValue());
      case 3 -> {
        int n = Math.min(a.size(), b.size());
        for (int i = 0; i < n; i++) {
          int c = compareValues(a.get(i), b.get(i));
          if (c != 0) {
            yield c;
          }
        }
        yield Integer.compare(a.size(), b.size());
      }
      case 4 -> {
        TreeMap<String, JsonNode> ma = new TreeMap<>();
        a.properties().forEach(e -> ma.put(e.getKey(), e.getValue()));
        TreeMap<String, JsonNode> mb = new TreeMap<>();
        b.properties().forEach(e -> mb.put(e.getKey(), e.getValue()));
        yield compareKeys(ma, mb);
      }
      default -> 0;
    };
  }

  private static int valueRank(JsonNode v) {
    if (v == null || v.isNull()) {
      return 5;
    } else if (v.isNumber()) {
      return 0;
    } else if (v.isString()) {
      return 1;
    } else if (v.isBoolean()) {
      return 2;
    } else if (v.isArray()) {
      return 3;
    }
    return 4;
  }
}
