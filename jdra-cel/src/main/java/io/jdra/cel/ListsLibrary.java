package io.jdra.cel;

import static dev.cel.common.types.SimpleType.BOOL;
import static dev.cel.common.types.SimpleType.BYTES;
import static dev.cel.common.types.SimpleType.DOUBLE;
import static dev.cel.common.types.SimpleType.DYN;
import static dev.cel.common.types.SimpleType.INT;
import static dev.cel.common.types.SimpleType.STRING;
import static dev.cel.common.types.SimpleType.UINT;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.TypeParamType;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;
import java.util.Map;

/**
 * The Kubernetes lists library (version 0: isSorted, sum, min, max, indexOf, lastIndexOf) and the
 * DRA {@code includes} function for list-type attributes.
 */
final class ListsLibrary {
  /** resourceapi.ResourceSliceMaxAttributeValuesPerDevice. */
  static final int MAX_ATTRIBUTE_VALUES = 48;

  private static final Map<String, CelType> COMPARABLE =
      orderedMap(
          "int", INT, "uint", UINT, "double", DOUBLE, "bool", BOOL, "string", STRING, "bytes",
          BYTES);
  private static final Map<String, CelType> SUMMABLE =
      orderedMap("int", INT, "uint", UINT, "double", DOUBLE);

  private ListsLibrary() {}

  private static Map<String, CelType> orderedMap(Object... kv) {
    Map<String, CelType> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (CelType) kv[i + 1]);
    }
    return m;
  }

  static void register(FunctionTable t) {
    COMPARABLE.forEach((name, type) -> {
      String sorted = "list_" + name + "_is_sorted_bool";
      t.member(
          "isSorted",
          sorted,
          BOOL,
          List.of(ListType.create(type)),
          CelFunctionBinding.from(sorted, List.class, ListsLibrary::isSorted));
      String max = "list_" + name + "_max_" + name;
      t.member(
          "max",
          max,
          type,
          List.of(ListType.create(type)),
          CelFunctionBinding.from(max, List.class, l -> extreme(l, "max", 1)));
      String min = "list_" + name + "_min_" + name;
      t.member(
          "min",
          min,
          type,
          List.of(ListType.create(type)),
          CelFunctionBinding.from(min, List.class, l -> extreme(l, "min", -1)));
    });
    SUMMABLE.forEach((name, type) -> {
      String id = "list_" + name + "_sum_" + name;
      Object zero =
          switch (name) {
            case "int" -> 0L;
            case "uint" -> UnsignedLong.ZERO;
            default -> 0.0;
          };
      t.member(
          "sum",
          id,
          type,
          List.of(ListType.create(type)),
          CelFunctionBinding.from(id, List.class, l -> sum(l, zero)));
    });
    CelType a = TypeParamType.create("A");
    t.member(
        "indexOf",
        "list_a_index_of_int",
        INT,
        List.of(ListType.create(a), a),
        CelFunctionBinding.from(
            "list_a_index_of_int", List.class, Object.class, (l, x) -> indexOf(l, x, false)));
    t.member(
        "lastIndexOf",
        "list_a_last_index_of_int",
        INT,
        List.of(ListType.create(a), a),
        CelFunctionBinding.from(
            "list_a_last_index_of_int", List.class, Object.class, (l, x) -> indexOf(l, x, true)));
  }

  /**
   * The largest list {@code lists.range} builds: one evaluation may cost at most the cost limit,
   * and building the list happens before any cost accounting could stop it.
   */
  static final long MAX_RANGE = CompilerOptions.DEFAULT_COST_LIMIT;

  /** The CEL lists extension's {@code lists.range(n)}, refusing sizes no evaluation may reach. */
  static void registerRange(FunctionTable t) {
    t.global(
        "lists.range",
        "lists_range",
        ListType.create(INT),
        List.of(INT),
        CelFunctionBinding.from("lists_range", Long.class, ListsLibrary::range));
  }

  private static List<Long> range(long n) throws CelEvaluationException {
    if (n > MAX_RANGE) {
      throw new CelEvaluationException(RuntimeCost.MESSAGE);
    }
    com.google.common.collect.ImmutableList.Builder<Long> b =
        com.google.common.collect.ImmutableList.builderWithExpectedSize((int) Math.max(n, 0));
    for (long i = 0; i < n; i++) {
      b.add(i);
    }
    return b.build();
  }

  /** DRA's {@code includes} (only with DRAListTypeAttributes). */
  static void registerIncludes(FunctionTable t) {
    t.member(
        "includes",
        "dra_includes_dyn_dyn",
        BOOL,
        List.of(DYN, DYN),
        CelFunctionBinding.from(
            "dra_includes_dyn_dyn", Object.class, Object.class, ListsLibrary::includes));
  }

  static boolean includes(Object target, Object arg) throws CelEvaluationException {
    if (target instanceof List<?> list) {
      int i = 0;
      for (Object item : list) {
        if (i >= MAX_ATTRIBUTE_VALUES) {
          throw new CelEvaluationException(
              "'includes' function cannot be applied to lists longer than "
                  + MAX_ATTRIBUTE_VALUES
                  + " values");
        }
        if (celEquals(item, arg)) {
          return true;
        }
        i++;
      }
      return false;
    }
    return celEquals(target, arg);
  }

  /** CEL equality for the scalar values selectors deal with: numbers compare across types. */
  static boolean celEquals(Object a, Object b) {
    if (a instanceof Number || a instanceof UnsignedLong) {
      if (b instanceof Number || b instanceof UnsignedLong) {
        return compareNumbers(a, b) == 0;
      }
      return false;
    }
    return a.equals(b);
  }

  private static int compareNumbers(Object a, Object b) {
    if (a instanceof Double || b instanceof Double) {
      return Double.compare(toDouble(a), toDouble(b));
    }
    return new java.math.BigInteger(a.toString()).compareTo(new java.math.BigInteger(b.toString()));
  }

  private static double toDouble(Object n) {
    return n instanceof UnsignedLong u ? u.doubleValue() : ((Number) n).doubleValue();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compare(Object a, Object b) {
    if (a instanceof CelByteString x && b instanceof CelByteString y) {
      byte[] p = x.toByteArray();
      byte[] q = y.toByteArray();
      return java.util.Arrays.compareUnsigned(p, q);
    }
    if ((a instanceof Number || a instanceof UnsignedLong)
        && (b instanceof Number || b instanceof UnsignedLong)) {
      return compareNumbers(a, b);
    }
    return Integer.signum(((Comparable) a).compareTo(b));
  }

  private static boolean isSorted(List<?> list) {
    for (int i = 1; i < list.size(); i++) {
      if (compare(list.get(i - 1), list.get(i)) > 0) {
        return false;
      }
    }
    return true;
  }

  private static Object extreme(List<?> list, String op, int prefer) throws CelEvaluationException {
    if (list.isEmpty()) {
      throw new CelEvaluationException(op + " called on empty list");
    }
    Object result = list.get(0);
    for (int i = 1; i < list.size(); i++) {
      if (compare(list.get(i), result) * prefer > 0) {
        result = list.get(i);
      }
    }
    return result;
  }

  /**
   * Sums by the elements' type (overloads of list types all bind to java.util.List, so dispatch
   * cannot tell them apart); {@code zero} is the declared overload's zero for an empty list.
   */
  private static Object sum(List<?> list, Object zero) throws CelEvaluationException {
    if (list.isEmpty()) {
      return zero;
    }
    Object first = list.get(0);
    try {
      if (first instanceof Long) {
        long acc = 0;
        for (Object x : list) {
          acc = Math.addExact(acc, (Long) x);
        }
        return acc;
      }
      if (first instanceof UnsignedLong) {
        UnsignedLong acc = UnsignedLong.ZERO;
        for (Object x : list) {
          UnsignedLong r = acc.plus((UnsignedLong) x);
          if (r.compareTo(acc) < 0) {
            throw new ArithmeticException();
          }
          acc = r;
        }
        return acc;
      }
      double acc = 0;
      for (Object x : list) {
        acc += (Double) x;
      }
      return acc;
    } catch (ArithmeticException e) {
      throw new CelEvaluationException("integer overflow");
    } catch (ClassCastException e) {
      throw new CelEvaluationException("no such overload: sum(list)");
    }
  }

  private static long indexOf(List<?> list, Object x, boolean last) {
    if (last) {
      for (int i = list.size() - 1; i >= 0; i--) {
        if (celEquals(list.get(i), x)) {
          return i;
        }
      }
    } else {
      for (int i = 0; i < list.size(); i++) {
        if (celEquals(list.get(i), x)) {
          return i;
        }
      }
    }
    return -1;
  }
}
