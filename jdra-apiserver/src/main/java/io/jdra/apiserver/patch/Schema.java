package io.jdra.apiserver.patch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Patch and merge metadata of the built-in kinds: per struct field its shape, SMP patch strategy
 * and merge key, and SSA list type, list-map keys and atomicity. Read once from {@code schema.txt},
 * generated from the Go API types (see {@code generate-schema.py} in the tests). Anything not
 * described is untyped: objects merge key by key, lists are atomic. Immutable.
 */
final class Schema {
  enum Kind {
    STRUCT,
    LIST,
    MAP,
    SCALAR,
    UNKNOWN
  }

  enum ListType {
    ATOMIC,
    SET,
    MAP
  }

  /**
   * A field, map value or list element description. {@code scalar} is the primitive of a scalar
   * field or of the items of a list or map of scalars ({@code string}, {@code boolean}, {@code
   * int32}, {@code int64}, {@code double}, {@code byte}, {@code quantity}, {@code intorstring},
   * {@code time}, {@code microtime}, {@code duration}, {@code raw}, {@code fieldsv1}, {@code any}),
   * {@code ""} when not known.
   */
  static final class Field {
    private final String name;
    private final Kind kind;
    private final String elem;
    private final List<String> strategies;
    private final String mergeKey;
    private final ListType listType;
    private final List<String> listKeys;
    private final boolean atomic;
    private final boolean zeroPresent;
    private final String scalar;

    /**
     * {@link #objectType} and {@link #elementField}, worked out on first use: every walk of a tree
     * along the schema asks a field for them at each node. Racing threads may each set them, to
     * equal values.
     */
    private Type objectType;

    private Field elementField;

    Field(
        String name,
        Kind kind,
        String elem,
        List<String> strategies,
        String mergeKey,
        ListType listType,
        List<String> listKeys,
        boolean atomic,
        boolean zeroPresent,
        String scalar) {
      this.name = name;
      this.kind = kind;
      this.elem = elem;
      this.strategies = strategies;
      this.mergeKey = mergeKey;
      this.listType = listType;
      this.listKeys = listKeys;
      this.atomic = atomic;
      this.zeroPresent = zeroPresent;
      this.scalar = scalar;
    }

    Field(
        String name,
        Kind kind,
        String elem,
        List<String> strategies,
        String mergeKey,
        ListType listType,
        List<String> listKeys,
        boolean atomic,
        boolean zeroPresent) {
      this(name, kind, elem, strategies, mergeKey, listType, listKeys, atomic, zeroPresent, "");
    }

    String name() {
      return name;
    }

    Kind kind() {
      return kind;
    }

    String elem() {
      return elem;
    }

    List<String> strategies() {
      return strategies;
    }

    String mergeKey() {
      return mergeKey;
    }

    ListType listType() {
      return listType;
    }

    List<String> listKeys() {
      return listKeys;
    }

    boolean atomic() {
      return atomic;
    }

    boolean zeroPresent() {
      return zeroPresent;
    }

    String scalar() {
      return scalar;
    }

    /** The type of an object value of this field (struct, map or untyped). */
    Type objectType() {
      Type t = objectType;
      if (t == null) {
        t = resolveObjectType();
        objectType = t;
      }
      return t;
    }

    /** {@link #objectType} worked out (for tests: what the remembered one must equal). */
    Type resolveObjectType() {
      return switch (kind) {
        case STRUCT -> type(elem);
        case MAP -> Type.mapOf(elementField(), atomic);
        default -> Type.UNTYPED;
      };
    }

    /** The description of list elements or map values. */
    Field elementField() {
      Field e = elementField;
      if (e == null) {
        e = resolveElementField();
        elementField = e;
      }
      return e;
    }

    /** {@link #elementField} worked out (for tests). */
    Field resolveElementField() {
      Kind k = "-".equals(elem) ? Kind.SCALAR : Kind.STRUCT;
      return new Field(
          "", k, elem, List.of(), "", ListType.ATOMIC, List.of(), false, false, scalar);
    }

    /** The SMP patch strategy other than retainKeys ("" when none). */
    String patchStrategy() {
      for (String s : strategies) {
        if (!"retainKeys".equals(s)) {
          return s;
        }
      }
      return "";
    }

    /** Equal descriptions, as the record this class was compared (the memos left out). */
    @Override
    public boolean equals(Object o) {
      return o instanceof Field f
          && name.equals(f.name)
          && kind == f.kind
          && elem.equals(f.elem)
          && strategies.equals(f.strategies)
          && mergeKey.equals(f.mergeKey)
          && listType == f.listType
          && listKeys.equals(f.listKeys)
          && atomic == f.atomic
          && zeroPresent == f.zeroPresent
          && scalar.equals(f.scalar);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(
          name, kind, elem, strategies, mergeKey, listType, listKeys, atomic, zeroPresent, scalar);
    }

    @Override
    public String toString() {
      return "Field[name="
          + name
          + ", kind="
          + kind
          + ", elem="
          + elem
          + ", scalar="
          + scalar
          + "]";
    }
  }

  /** An object type: a struct with declared fields, a map, or untyped. */
  static final class Type {
    static final Type UNTYPED = new Type("untyped", false, Map.of(), null);

    final String name;
    final boolean atomic;
    final Map<String, Field> fields;
    final Field mapValue;

    /** The fields a Go value of the type always shows (see {@link Field#zeroPresent}). */
    final List<Field> zeroPresentFields;

    Type(String name, boolean atomic, Map<String, Field> fields, Field mapValue) {
      this.name = name;
      this.atomic = atomic;
      this.fields = fields;
      this.mapValue = mapValue;
      this.zeroPresentFields =
          fields.isEmpty()
              ? List.of()
              : fields.values().stream().filter(Field::zeroPresent).toList();
    }

    static Type mapOf(Field value, boolean atomic) {
      return new Type("map", atomic, Map.of(), value);
    }

    boolean isStruct() {
      return mapValue == null && this != UNTYPED;
    }

    /** The description of the value under key (UNKNOWN when the key is not declared). */
    Field field(String key) {
      if (mapValue != null) {
        return mapValue;
      }
      Field f = fields.get(key);
      return f != null ? f : unknown(key);
    }

    boolean declares(String key) {
      return fields.containsKey(key);
    }
  }

  private static Field unknown(String key) {
    return new Field(
        key, Kind.UNKNOWN, "-", List.of(), "", ListType.ATOMIC, List.of(), false, false);
  }

  private static final Map<String, Type> TYPES = new HashMap<>();
  private static final Map<String, String> ROOTS = new HashMap<>();

  static {
    load();
  }

  private Schema() {}

  /** Every type the schema describes (for tests). */
  static java.util.Collection<Type> types() {
    return java.util.Collections.unmodifiableCollection(TYPES.values());
  }

  static Type type(String name) {
    Type t = TYPES.get(name);
    return t == null ? Type.UNTYPED : t;
  }

  /** The root type of a kind served under apiVersion ("v1", "apps/v1", "resource.k8s.io/v1"). */
  static Type forKind(String apiVersion, String kind) {
    return kindSchema(apiVersion, kind).root();
  }

  /** True when the kind is described (upstream rejects SMP for kinds it has no Go type for). */
  static boolean known(String apiVersion, String kind) {
    return kindSchema(apiVersion, kind).known();
  }

  /** What the table says of a kind under an apiVersion. */
  private record KindSchema(boolean known, Type root) {
    static KindSchema of(String apiVersion, String kind) {
      String root = ROOTS.get(packageOf(apiVersion) + "." + kind);
      return new KindSchema(root != null, root == null ? Type.UNTYPED : type(root));
    }
  }

  /**
   * Every write asks for its kind two to four times, and the key parsing costs more than the
   * lookup: remembered per apiVersion, then kind (two lookups of strings whose hash the server's
   * constants already hold, no key built).
   */
  private static KindSchema kindSchema(String apiVersion, String kind) {
    if (apiVersion == null || kind == null) {
      return KindSchema.of(apiVersion, kind);
    }
    Map<String, KindSchema> kinds = BY_KIND.get(apiVersion);
    if (kinds == null) {
      kinds =
          BY_KIND.computeIfAbsent(apiVersion, v -> new java.util.concurrent.ConcurrentHashMap<>());
    }
    KindSchema s = kinds.get(kind);
    if (s == null) {
      s = KindSchema.of(apiVersion, kind);
      kinds.putIfAbsent(kind, s);
    }
    return s;
  }

  private static final Map<String, Map<String, KindSchema>> BY_KIND =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static String packageOf(String apiVersion) {
    String v = apiVersion == null ? "" : apiVersion;
    int slash = v.indexOf('/');
    String group = slash < 0 ? "" : v.substring(0, slash);
    String version = slash < 0 ? v : v.substring(slash + 1);
    String dir = group.isEmpty() ? "core" : group.split("\\.")[0];
    return dir + "/" + version;
  }

  private static void load() {
    try (InputStream in = Schema.class.getResourceAsStream("schema.txt")) {
      if (in == null) {
        throw new IllegalStateException("schema.txt missing from the classpath");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      String typeName = null;
      boolean atomic = false;
      Map<String, Field> fields = null;
      while ((line = r.readLine()) != null) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] p = line.split(" ");
        switch (p[0]) {
          case "R" -> ROOTS.put(p[1], p[1]);
          case "T" -> {
            if (typeName != null) {
              TYPES.put(typeName, new Type(typeName, atomic, Map.copyOf(fields), null));
            }
            typeName = p[1];
            atomic = p.length > 2 && "atomic".equals(p[2]);
            fields = new LinkedHashMap<>();
          }
          case "F" -> fields.put(p[1], parseField(p));
          default -> throw new IllegalStateException("bad schema line: " + line);
        }
      }
      if (typeName != null) {
        TYPES.put(typeName, new Type(typeName, atomic, Map.copyOf(fields), null));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Field parseField(String[] p) {
    Kind kind =
        switch (p[2]) {
          case "S" -> Kind.STRUCT;
          case "L" -> Kind.LIST;
          case "M" -> Kind.MAP;
          default -> Kind.SCALAR;
        };
    List<String> strategies = List.of();
    String mergeKey = "";
    String listType = "";
    List<String> keys = List.of();
    boolean atomic = false;
    boolean zero = false;
    String scalar = "";
    for (String a : Arrays.asList(p).subList(4, p.length)) {
      if (a.startsWith("ps=")) {
        strategies = List.of(a.substring(3).split(","));
      } else if (a.startsWith("mk=")) {
        mergeKey = a.substring(3);
      } else if (a.startsWith("lt=")) {
        listType = a.substring(3);
      } else if (a.startsWith("lk=")) {
        keys = List.of(a.substring(3).split(","));
      } else if (a.equals("mt=atomic")) {
        atomic = true;
      } else if (a.equals("z")) {
        zero = true;
      } else if (a.startsWith("t=")) {
        scalar = a.substring(2);
      }
    }
    return new Field(
        p[1],
        kind,
        p[3],
        strategies,
        mergeKey,
        ssaListType(listType, strategies, mergeKey, keys),
        ssaKeys(listType, mergeKey, keys),
        atomic,
        zero,
        scalar);
  }

  /**
   * The SSA list type: the explicit +listType, else (as kube-openapi's schema conversion) a merge
   * patch strategy makes a map keyed by the merge key, or a set without one; else atomic.
   */
  private static ListType ssaListType(
      String listType, List<String> strategies, String mergeKey, List<String> keys) {
    switch (listType) {
      case "map":
        return ListType.MAP;
      case "set":
        return ListType.SET;
      case "atomic":
        return ListType.ATOMIC;
      default:
        if (strategies.contains("merge")) {
          return mergeKey.isEmpty() ? ListType.SET : ListType.MAP;
        }
        return ListType.ATOMIC;
    }
  }

  private static List<String> ssaKeys(String listType, String mergeKey, List<String> keys) {
    if (!keys.isEmpty()) {
      return keys;
    }
    return mergeKey.isEmpty() ? List.of() : List.of(mergeKey);
  }
}
