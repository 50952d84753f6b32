package io.jdra.apiserver.patch;

import io.jdra.apiserver.patch.Schema.Field;
import io.jdra.apiserver.patch.Schema.Type;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Whether a create or update body is clean: it decodes into its Go type ({@link
 * TypeCheck#decodeError} finds nothing) and has no unknown field ({@link
 * StrictDecoding#unknownFields} finds none, so {@link StrictDecoding#prune} removes nothing). One
 * walk instead of those three; a body that is not clean takes them, which word the errors. It
 * follows both walks' descent: the type check's through every typed value, the unknown-field
 * check's through struct types only (below an untyped or map-typed object no field is unknown).
 * {@code BodyCheckTest} compares it with the two checks on the upstream example objects and on
 * every one-change variant of them. Stateless and thread-safe.
 */
public final class BodyCheck {
  private static final List<String> NO_PATH = List.of();

  private BodyCheck() {}

  /** True when the object of the kind under apiVersion decodes and has no unknown field. */
  public static boolean clean(String apiVersion, String kind, JsonNode obj) {
    if (obj == null || !obj.isObject()) {
      return false; // the checks decide
    }
    if (!Schema.known(apiVersion, kind)) {
      return true; // neither check describes the kind
    }
    // the unknown-field check treats the root as a struct whatever its table entry
    return struct(Schema.forKind(apiVersion, kind), obj, true);
  }

  /**
   * An object of type t; {@code strict}: the unknown-field check sees a struct here, so a key t
   * does not declare is unknown.
   */
  private static boolean struct(Type t, JsonNode obj, boolean strict) {
    Field mapValue = t.mapValue;
    for (Map.Entry<String, JsonNode> e : obj.properties()) {
      // t.declares(key) and t.field(key) in one lookup; an undeclared key's value (t.field's
      // UNKNOWN) passes both checks
      Field declared = t.fields.get(e.getKey());
      if (declared == null && strict) {
        return false;
      }
      Field f = mapValue != null ? mapValue : declared;
      if (f != null && !value(f, e.getValue(), strict)) {
        return false;
      }
    }
    return true;
  }

  private static boolean value(Field f, JsonNode v, boolean strict) {
    if (v == null || v.isNull()) {
      return true;
    }
    switch (f.kind()) {
      case STRUCT -> {
        if (!v.isObject()) {
          return false;
        }
        Type t = f.objectType(); // Schema.type(f.elem()) for a struct, remembered
        return t == Type.UNTYPED || struct(t, v, strict && t.isStruct());
      }
      case MAP -> {
        return v.isObject() && elements(f, v, strict);
      }
      case LIST -> {
        return v.isArray() && elements(f, v, strict);
      }
      case SCALAR -> {
        return TypeCheck.scalar(f.scalar(), v, "", NO_PATH) == null;
      }
      default -> {
        return true; // an undeclared field's value: neither check looks into it
      }
    }
  }

  private static boolean elements(Field f, JsonNode container, boolean strict) {
    Field elem = f.elementField();
    for (JsonNode item : container.values()) {
      if (!value(elem, item, strict)) {
        return false;
      }
    }
    return true;
  }
}
