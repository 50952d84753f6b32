package io.jdra.cel;

import com.google.common.primitives.UnsignedLong;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.RuntimeHelpers;
import java.util.List;
import java.util.Map;

/**
 * Replacements for a few CEL-Java standard bindings (the standard ones are filtered out in {@link
 * CelEnvironment}): map indexing where an unknown domain is an empty map and a missing key says "no
 * such key", equality without CEL-Java's per-call protobuf probing, and {@code matches} with
 * compiled patterns cached. CEL-Java binds standard functions per function name, so each function's
 * overloads are replaced together.
 */
final class StandardOverrides {
  private StandardOverrides() {}

  static void register(FunctionTable t) {
    CelFunctionBinding.fromOverloads(
            "_[_]",
            CelFunctionBinding.from(
                "index_list", List.class, Object.class, StandardOverrides::indexList),
            CelFunctionBinding.from(
                "index_map", Map.class, Object.class, StandardOverrides::indexMap))
        .forEach(t::binding);
    CelFunctionBinding.fromOverloads(
            "_==_",
            CelFunctionBinding.from("equals", Object.class, Object.class, StandardOverrides::equal))
        .forEach(t::binding);
    CelFunctionBinding.fromOverloads(
            "_!=_",
            CelFunctionBinding.from(
                "not_equals", Object.class, Object.class, (x, y) -> !equal(x, y)))
        .forEach(t::binding);
    CelFunctionBinding.fromOverloads(
            "matches",
            CelFunctionBinding.from("matches", String.class, String.class, RegexLibrary::matches),
            CelFunctionBinding.from(
                "matches_string", String.class, String.class, RegexLibrary::matches))
        .forEach(t::binding);
  }

  private static final RuntimeEquality EQUALITY =
      RuntimeEquality.create(RuntimeHelpers.create(), CelEnvironment.CEL_OPTIONS);

  /** CEL equality; the standard implementation first probes for protobuf types on every call. */
  static boolean equal(Object x, Object y) {
    if (x instanceof String a && y instanceof String b) {
      return a.equals(b);
    }
    if (x instanceof Long a && y instanceof Long b) {
      return a.longValue() == b.longValue();
    }
    if (x instanceof Boolean a && y instanceof Boolean b) {
      return a.booleanValue() == b.booleanValue();
    }
    return EQUALITY.objectEquals(x, y);
  }

  static Object indexList(List<?> list, Object index) throws CelEvaluationException {
    long i;
    if (index instanceof Long l) {
      i = l;
    } else if (index instanceof UnsignedLong u) {
      i = u.longValue() < 0 ? Long.MAX_VALUE : u.longValue();
    } else if (index instanceof Double d && d == Math.rint(d)) {
      i = (long) (double) d;
    } else {
      throw new CelEvaluationException(
          "unsupported index type '" + ValueTypes.typeName(index) + "' in list");
    }
    if (i < 0 || i >= list.size()) {
      throw new CelEvaluationException(
          "index '" + i + "' out of range in list size '" + list.size() + "'");
    }
    return list.get((int) i);
  }

  static Object indexMap(Map<?, ?> map, Object key) {
    if (map instanceof LazyMapValue lazy) {
      return lazy.index(key);
    }
    Object v = map.get(key);
    if (v == null) {
      v = numericKeyLookup(map, key);
    }
    if (v == null) {
      throw LazyMapValue.noSuchKey(key);
    }
    return v;
  }

  /** CEL map keys match across int, uint and integral double. */
  private static Object numericKeyLookup(Map<?, ?> map, Object key) {
    if (key instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
      Object v = map.get((long) (double) d);
      return v != null ? v : map.get(UnsignedLong.valueOf((long) (double) d));
    }
    if (key instanceof Long l) {
      return l >= 0 ? map.get(UnsignedLong.fromLongBits(l)) : null;
    }
    if (key instanceof UnsignedLong u) {
      return u.longValue() >= 0 ? map.get(u.longValue()) : null;
    }
    return null;
  }
}
