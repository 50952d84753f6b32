package io.jdra.apiserver.patch;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.lang.reflect.ParameterizedType;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds OpenAPI v3 component schemas (as kube-apiserver serves under {@code components.schemas})
 * from the field table the patch engines use: objects with their properties, arrays with items,
 * maps with {@code additionalProperties}, and the list, map and patch extensions. Scalars get their
 * primitive type from the fabric8 model class of the struct when it is on the classpath, else a
 * permissive schema. Descriptions are not known. Stateless and thread-safe; each call returns a new
 * tree the caller owns.
 */
public final class OpenApiSchemas {
  private static final String REF_PREFIX = "#/components/schemas/";
  private static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
  private static final String INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";

  /** A kind served at group/version ({@code ""} group for core). */
  public record Gvk(String group, String version, String kind) {
    public Gvk {
      Objects.requireNonNull(group);
      Objects.requireNonNull(version);
      Objects.requireNonNull(kind);
    }

    String apiVersion() {
      return group.isEmpty() ? version : group + "/" + version;
    }
  }

  private final ObjectNode schemas = Json.object();

  private OpenApiSchemas() {}

  /**
   * The schemas of the given kinds and of every type they reference, keyed by upstream's definition
   * names (e.g. {@code io.k8s.api.resource.v1.ResourceClaim}); the kinds' own schemas carry {@code
   * x-kubernetes-group-version-kind}. Kinds the field table does not describe are left out.
   */
  public static ObjectNode componentSchemas(List<Gvk> kinds) {
    OpenApiSchemas b = new OpenApiSchemas();
    for (Gvk k : kinds) {
      if (!Schema.known(k.apiVersion(), k.kind())) {
        continue;
      }
      String name = b.struct(Schema.forKind(k.apiVersion(), k.kind()).name);
      ArrayNode gvks =
          ((ObjectNode) b.schemas.get(name)).putArray("x-kubernetes-group-version-kind");
      gvks.addObject().put("group", k.group()).put("kind", k.kind()).put("version", k.version());
    }
    ObjectNode sorted = Json.object();
    new TreeSet<>(b.schemas.propertyNames()).forEach(n -> sorted.set(n, b.schemas.get(n)));
    return sorted;
  }

  /** Upstream's definition name of a Go type such as {@code meta/v1.ObjectMeta}. */
  static String schemaName(String goType) {
    int slash = goType.indexOf('/');
    String pkg = goType.substring(0, slash);
    String rest = goType.substring(slash + 1);
    return pkg.equals("meta")
        ? "io.k8s.apimachinery.pkg.apis.meta." + rest
        : "io.k8s.api." + pkg + "." + rest;
  }

  /** Adds the schema of a struct type (once) and returns its name. */
  private String struct(String goType) {
    String name = schemaName(goType);
    if (schemas.has(name)) {
      return name;
    }
    ObjectNode s = schemas.putObject(name);
    s.put("type", "object");
    Schema.Type t = Schema.type(goType);
    if (!t.isStruct()) {
      s.put("x-kubernetes-preserve-unknown-fields", true);
      return name;
    }
    if (t.atomic) {
      s.put("x-kubernetes-map-type", "atomic");
    }
    Map<String, java.lang.reflect.Type> java =
        ModelTypes.classOf(goType).map(ModelTypes::properties).orElse(Map.of());
    ObjectNode props = s.putObject("properties");
    for (Schema.Field f : new TreeMap<>(t.fields).values()) {
      props.set(f.name(), field(f, java.get(f.name())));
    }
    return name;
  }

  private ObjectNode field(Schema.Field f, java.lang.reflect.Type javaType) {
    ObjectNode s;
    switch (f.kind()) {
      case STRUCT -> s = ref(struct(f.elem()));
      case LIST -> {
        s = Json.object().put("type", "array");
        s.set("items", element(f.elem(), ModelTypes.elementOf(javaType)));
        s.put("x-kubernetes-list-type", f.listType().name().toLowerCase(Locale.ROOT));
        if (f.listType() == Schema.ListType.MAP && !f.listKeys().isEmpty()) {
          ArrayNode keys = s.putArray("x-kubernetes-list-map-keys");
          f.listKeys().forEach(keys::add);
        }
      }
      case MAP -> {
        s = Json.object().put("type", "object");
        s.set("additionalProperties", element(f.elem(), ModelTypes.elementOf(javaType)));
        if (f.atomic()) {
          s.put("x-kubernetes-map-type", "atomic");
        }
      }
      default -> s = primitive(javaType);
    }
    if (!f.strategies().isEmpty()) {
      s.put("x-kubernetes-patch-strategy", String.join(",", f.strategies()));
    }
    if (!f.mergeKey().isEmpty()) {
      s.put("x-kubernetes-patch-merge-key", f.mergeKey());
    }
    return s;
  }

  private ObjectNode element(String elem, java.lang.reflect.Type javaType) {
    return "-".equals(elem) ? primitive(javaType) : ref(struct(elem));
  }

  /** A reference wrapped in allOf as upstream does, so sibling extensions stay meaningful. */
  private static ObjectNode ref(String name) {
    ObjectNode s = Json.object();
    s.putArray("allOf").addObject().put("$ref", REF_PREFIX + name);
    return s;
  }

  private ObjectNode primitive(java.lang.reflect.Type t) {
    Class<?> c =
        t instanceof Class<?> k
            ? k
            : t instanceof ParameterizedType p && p.getRawType() instanceof Class<?> r ? r : null;
    if (c == null) {
      return permissive();
    }
    if (c == String.class) {
      return Json.object().put("type", "string");
    }
    if (c == Integer.class || c == int.class || c == Short.class) {
      return Json.object().put("type", "integer").put("format", "int32");
    }
    if (c == Long.class || c == long.class) {
      return Json.object().put("type", "integer").put("format", "int64");
    }
    if (c == Boolean.class || c == boolean.class) {
      return Json.object().put("type", "boolean");
    }
    if (c == Double.class || c == Float.class || c == double.class) {
      return Json.object().put("type", "number").put("format", "double");
    }
    if (c == Quantity.class) {
      oneOf(QUANTITY, "string", "number");
      return ref(QUANTITY);
    }
    if (c == IntOrString.class) {
      oneOf(INT_OR_STRING, "integer", "string").put("format", "int-or-string");
      return ref(INT_OR_STRING);
    }
    if (Map.class.isAssignableFrom(c)) {
      return Json.object().put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
    }
    return permissive();
  }

  private ObjectNode oneOf(String name, String... types) {
    if (schemas.has(name)) {
      return (ObjectNode) schemas.get(name);
    }
    ObjectNode s = schemas.putObject(name);
    ArrayNode alts = s.putArray("oneOf");
    for (String type : types) {
      alts.addObject().put("type", type);
    }
    return s;
  }

  /** Any value: the table has no primitive type for it and no model class says more. */
  private static ObjectNode permissive() {
    return Json.object().put("x-kubernetes-preserve-unknown-fields", true);
  }
}
