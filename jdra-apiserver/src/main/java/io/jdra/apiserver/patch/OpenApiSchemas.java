package io.jdra.apiserver.patch;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds OpenAPI v3 component schemas (as kube-apiserver serves under {@code components.schemas})
 * from the field table the patch engines use: objects with their properties, arrays with items,
 * maps with {@code additionalProperties}, and the list, map and patch extensions. Scalars get the
 * primitive type the table recorded from the Go types; quantities, int-or-strings, times, raw
 * extensions and managed-field sets reference shared schemas named as upstream's. Descriptions are
 * not known. Stateless and thread-safe; each call returns a new tree the caller owns.
 */
public final class OpenApiSchemas {
  private static final String REF_PREFIX = "#/components/schemas/";
  private static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
  private static final String INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
  private static final String TIME = META + "Time";
  private static final String MICRO_TIME = META + "MicroTime";
  private static final String FIELDS_V1 = META + "FieldsV1";
  private static final String RAW_EXTENSION = "io.k8s.apimachinery.pkg.runtime.RawExtension";

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
      // one Go type may be served as several kinds (upstream lists them all)
      ArrayNode gvks =
          ((ObjectNode) b.schemas.get(name)).withArrayProperty("x-kubernetes-group-version-kind");
      gvks.addObject().put("group", k.group()).put("kind", k.kind()).put("version", k.version());
    }
    ObjectNode sorted = Json.object();
    new TreeSet<>(b.schemas.propertyNames()).forEach(n -> sorted.set(n, b.schemas.get(n)));
    return sorted;
  }

  /**
   * The same schemas as Swagger 2.0 {@code definitions} (served at {@code /openapi/v2}): plain
   * {@code $ref}s to {@code #/definitions/}, and quantities and int-or-strings as the strings
   * upstream's v2 document declares them.
   */
  public static ObjectNode swaggerDefinitions(List<Gvk> kinds) {
    ObjectNode defs = componentSchemas(kinds);
    defs.properties().forEach(e -> toSwagger(e.getValue()));
    defs.set(QUANTITY, Json.object().put("type", "string"));
    defs.set(INT_OR_STRING, Json.object().put("type", "string").put("format", "int-or-string"));
    defs.set(META + "Patch", Json.object().put("type", "object"));
    return defs;
  }

  private static void toSwagger(tools.jackson.databind.JsonNode n) {
    if (n instanceof ObjectNode o) {
      if (o.get("allOf") instanceof ArrayNode all && all.size() == 1 && all.get(0).has("$ref")) {
        o.remove("allOf");
        o.put("$ref", all.get(0).get("$ref").asString().replace(REF_PREFIX, "#/definitions/"));
      }
      o.properties().forEach(e -> toSwagger(e.getValue()));
    } else if (n instanceof ArrayNode a) {
      a.forEach(OpenApiSchemas::toSwagger);
    }
  }

  /** The definition name of a served kind ({@code io.k8s.api.core.v1.Pod}); null if undescribed. */
  public static String definitionName(Gvk k) {
    return Schema.known(k.apiVersion(), k.kind())
        ? schemaName(Schema.forKind(k.apiVersion(), k.kind()).name)
        : null;
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
    ObjectNode props = s.putObject("properties");
    for (Schema.Field f : new TreeMap<>(t.fields).values()) {
      props.set(f.name(), field(f));
    }
    return name;
  }

  private ObjectNode field(Schema.Field f) {
    ObjectNode s;
    switch (f.kind()) {
      case STRUCT -> s = ref(struct(f.elem()));
      case LIST -> {
        s = Json.object().put("type", "array");
        s.set("items", element(f));
        s.put("x-kubernetes-list-type", f.listType().name().toLowerCase(Locale.ROOT));
        if (f.listType() == Schema.ListType.MAP && !f.listKeys().isEmpty()) {
          ArrayNode keys = s.putArray("x-kubernetes-list-map-keys");
          f.listKeys().forEach(keys::add);
        }
      }
      case MAP -> {
        s = Json.object().put("type", "object");
        s.set("additionalProperties", element(f));
        if (f.atomic()) {
          s.put("x-kubernetes-map-type", "atomic");
        }
      }
      default -> s = scalar(f.scalar());
    }
    if (!f.strategies().isEmpty()) {
      s.put("x-kubernetes-patch-strategy", String.join(",", f.strategies()));
    }
    if (!f.mergeKey().isEmpty()) {
      s.put("x-kubernetes-patch-merge-key", f.mergeKey());
    }
    return s;
  }

  /** The schema of the items of a list or the values of a map. */
  private ObjectNode element(Schema.Field f) {
    return "-".equals(f.elem()) ? scalar(f.scalar()) : ref(struct(f.elem()));
  }

  /** A reference wrapped in allOf as upstream does, so sibling extensions stay meaningful. */
  private static ObjectNode ref(String name) {
    ObjectNode s = Json.object();
    s.putArray("allOf").addObject().put("$ref", REF_PREFIX + name);
    return s;
  }

  /** The schema of a scalar of the field table (see {@link Schema.Field#scalar()}). */
  private ObjectNode scalar(String token) {
    return switch (token) {
      case "string", "duration" -> Json.object().put("type", "string");
      case "boolean" -> Json.object().put("type", "boolean");
      case "int32", "int64" -> Json.object().put("type", "integer").put("format", token);
      case "double" -> Json.object().put("type", "number").put("format", "double");
      case "byte" -> Json.object().put("type", "string").put("format", "byte");
      case "quantity" -> {
        oneOf(QUANTITY, "string", "number");
        yield ref(QUANTITY);
      }
      case "intorstring" -> {
        oneOf(INT_OR_STRING, "integer", "string").put("format", "int-or-string");
        yield ref(INT_OR_STRING);
      }
      case "time", "microtime" -> {
        String name = token.equals("time") ? TIME : MICRO_TIME;
        shared(name).put("type", "string").put("format", "date-time");
        yield ref(name);
      }
      case "raw", "fieldsv1" -> {
        String name = token.equals("raw") ? RAW_EXTENSION : FIELDS_V1;
        shared(name).put("type", "object");
        yield ref(name);
      }
      case "any" ->
          Json.object().put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
      default -> permissive();
    };
  }

  private ObjectNode shared(String name) {
    return schemas.has(name) ? (ObjectNode) schemas.get(name) : schemas.putObject(name);
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
