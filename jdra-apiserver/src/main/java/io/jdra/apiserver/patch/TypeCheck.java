package io.jdra.apiserver.patch;

import io.jdra.apiserver.patch.Schema.Field;
import io.jdra.apiserver.patch.Schema.Type;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Whether an object of a built-in kind would decode into its Go type: every declared field holds a
 * value of its JSON shape (object, list, map, string, bool, integer in range, number). Upstream's
 * decoder refuses the whole request otherwise; storing such an object would break every typed
 * client that lists the resource. Unknown fields are not this check's business (field validation
 * handles them); null is accepted anywhere, as Go leaves the zero value. Stateless and thread-safe.
 */
public final class TypeCheck {
  private static final BigInteger INT32_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
  private static final BigInteger INT32_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
  private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private TypeCheck() {}

  /**
   * The first decoding error of {@code obj} as kind under apiVersion, worded as Go's encoding/json
   * (e.g. {@code json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of
   * type int32}); null when it decodes or the kind is not described.
   */
  public static String decodeError(String apiVersion, String kind, JsonNode obj) {
    if (!Schema.known(apiVersion, kind) || obj == null || !obj.isObject()) {
      return null;
    }
    Type root = Schema.forKind(apiVersion, kind);
    return struct(root, obj, new ArrayList<>());
  }

  /**
   * As {@link #decodeError(String, String, JsonNode)} for a type that is not a served kind, named
   * as in the schema table (e.g. {@code meta/v1.DeleteOptions}); null when it decodes.
   */
  public static String decodeErrorAs(String schemaType, JsonNode obj) {
    if (obj == null || !obj.isObject()) {
      return null;
    }
    return struct(Schema.type(schemaType), obj, new ArrayList<>());
  }

  private static String struct(Type t, JsonNode obj, List<String> path) {
    for (Map.Entry<String, JsonNode> e : obj.properties()) {
      Field f = t.field(e.getKey());
      path.add(e.getKey());
      // the owner's short name is only spelled out in an error
      String err = value(f, e.getValue(), t.name, path);
      path.remove(path.size() - 1);
      if (err != null) {
        return err;
      }
    }
    return null;
  }

  /** Checks a field's value; {@code owner} is the schema name of the Go struct that declares it. */
  private static String value(Field f, JsonNode v, String owner, List<String> path) {
    if (v == null || v.isNull()) {
      return null;
    }
    return switch (f.kind()) {
      case STRUCT -> {
        if (!v.isObject()) {
          yield mismatch(v, owner, path, goType(f));
        }
        Type t = Schema.type(f.elem());
        yield t == Type.UNTYPED ? null : struct(t, v, path);
      }
      case MAP -> {
        if (!v.isObject()) {
          yield mismatch(v, owner, path, goType(f));
        }
        yield elements(f, v.values(), owner, path);
      }
      case LIST -> {
        if (!v.isArray()) {
          yield mismatch(v, owner, path, goType(f));
        }
        yield elements(f, v.values(), owner, path);
      }
      case SCALAR -> scalar(f.scalar(), v, owner, path);
      case UNKNOWN -> null;
    };
  }

  private static String elements(
      Field f, Iterable<JsonNode> values, String owner, List<String> path) {
    Field elem = f.elementField();
    for (JsonNode item : values) {
      String err = value(elem, item, owner, path);
      if (err != null) {
        return err;
      }
    }
    return null;
  }

  static String scalar(String scalar, JsonNode v, String owner, List<String> path) {
    return switch (scalar) {
      // times and durations decode their JSON string first, and fail as a string would
      case "string", "time", "microtime", "duration" ->
          v.isString() ? null : mismatch(v, owner, path, "string");
      case "byte" -> v.isString() ? null : mismatch(v, owner, path, "[]uint8");
      case "boolean" -> v.isBoolean() ? null : mismatch(v, owner, path, "bool");
      case "int32" -> integer(v, INT32_MIN, INT32_MAX, owner, path, "int32");
      case "int64" -> integer(v, INT64_MIN, INT64_MAX, owner, path, "int64");
      case "double" ->
          v.isNumber() && Double.isFinite(v.asDouble())
              ? null
              : mismatch(v, owner, path, "float64");
      case "intorstring" ->
          v.isString() ? null : integer(v, INT32_MIN, INT32_MAX, owner, path, "int32");
      case "quantity" ->
          v.isString() || (v.isNumber() && Double.isFinite(v.asDouble()))
              ? null
              : "quantities must match the regular expression"
                  + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
      default -> null; // raw extensions, managed field sets and untyped values take anything
    };
  }

  private static String integer(
      JsonNode v, BigInteger min, BigInteger max, String owner, List<String> path, String type) {
    if (!v.isNumber()) {
      return mismatch(v, owner, path, type);
    }
    if (v.isIntegralNumber() && v.canConvertToLong()) {
      long n = v.longValue(); // no BigInteger for the usual small number
      if (n >= min.longValue() && n <= max.longValue()) {
        return null;
      }
    } else if (v.isIntegralNumber()) {
      BigInteger n = v.bigIntegerValue();
      if (n.compareTo(min) >= 0 && n.compareTo(max) <= 0) {
        return null;
      }
    }
    return "json: cannot unmarshal number "
        + v.asString()
        + " into Go struct field "
        + shortName(owner)
        + "."
        + String.join(".", path)
        + " of type "
        + type;
  }

  private static String mismatch(JsonNode v, String owner, List<String> path, String type) {
    return "json: cannot unmarshal "
        + JsonPatch.goJsonKind(v)
        + " into Go struct field "
        + shortName(owner)
        + "."
        + String.join(".", path)
        + " of type "
        + type;
  }

  /** The Go type of a field as reflect prints it: v1.PodSpec, []v1.Container, map[string]string. */
  private static String goType(Field f) {
    String elem = "-".equals(f.elem()) ? goScalar(f.scalar()) : goStruct(f.elem());
    return switch (f.kind()) {
      case LIST -> "[]" + elem;
      case MAP -> "map[string]" + elem;
      default -> elem;
    };
  }

  private static String goScalar(String scalar) {
    return switch (scalar) {
      case "boolean" -> "bool";
      case "double" -> "float64";
      case "byte" -> "[]uint8";
      case "quantity" -> "resource.Quantity";
      case "intorstring" -> "intstr.IntOrString";
      case "time" -> "v1.Time";
      case "microtime" -> "v1.MicroTime";
      case "duration" -> "v1.Duration";
      case "", "any", "raw", "fieldsv1" -> "interface {}";
      default -> scalar;
    };
  }

  /** core/v1.PodSpec as Go prints it: v1.PodSpec. */
  private static String goStruct(String schemaName) {
    int slash = schemaName.lastIndexOf('/');
    return slash < 0 ? schemaName : schemaName.substring(slash + 1);
  }

  /** core/v1.PodSpec as the struct of an error context: PodSpec. */
  private static String shortName(String schemaName) {
    int dot = schemaName.lastIndexOf('.');
    return dot < 0 ? schemaName : schemaName.substring(dot + 1);
  }
}
