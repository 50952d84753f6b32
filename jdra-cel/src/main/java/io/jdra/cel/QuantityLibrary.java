package io.jdra.cel;

import static dev.cel.common.types.SimpleType.BOOL;
import static dev.cel.common.types.SimpleType.DOUBLE;
import static dev.cel.common.types.SimpleType.INT;
import static dev.cel.common.types.SimpleType.STRING;

import dev.cel.common.types.CelType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.jdra.api.quantity.Quantity;
import java.util.List;

/** The Kubernetes quantity library (kubernetes.Quantity). */
final class QuantityLibrary {
  private static final CelType Q = QuantityValue.TYPE;

  private QuantityLibrary() {}

  static void register(FunctionTable t) {
    t.global(
        "quantity",
        "string_to_quantity",
        Q,
        List.of(STRING),
        CelFunctionBinding.from("string_to_quantity", String.class, QuantityLibrary::parse));
    t.global(
        "isQuantity",
        "is_quantity_string",
        BOOL,
        List.of(STRING),
        CelFunctionBinding.from("is_quantity_string", String.class, QuantityLibrary::isQuantity));
    // Upstream declares sign as a global function: sign(q).
    t.global(
        "sign",
        "quantity_sign",
        INT,
        List.of(Q),
        CelFunctionBinding.from(
            "quantity_sign", QuantityValue.class, q -> (long) q.quantity().signum()));
    t.member(
        "isGreaterThan",
        "quantity_is_greater_than",
        BOOL,
        List.of(Q, Q),
        CelFunctionBinding.from(
            "quantity_is_greater_than",
            QuantityValue.class,
            QuantityValue.class,
            (a, b) -> a.compareTo(b) > 0));
    t.member(
        "isLessThan",
        "quantity_is_less_than",
        BOOL,
        List.of(Q, Q),
        CelFunctionBinding.from(
            "quantity_is_less_than",
            QuantityValue.class,
            QuantityValue.class,
            (a, b) -> a.compareTo(b) < 0));
    t.member(
        "compareTo",
        "quantity_compare_to",
        INT,
        List.of(Q, Q),
        CelFunctionBinding.from(
            "quantity_compare_to",
            QuantityValue.class,
            QuantityValue.class,
            (a, b) -> (long) a.compareTo(b)));
    t.member(
        "asApproximateFloat",
        "quantity_get_float",
        DOUBLE,
        List.of(Q),
        CelFunctionBinding.from(
            "quantity_get_float", QuantityValue.class, q -> q.quantity().asApproximateDouble()));
    t.member(
        "asInteger",
        "quantity_get_int",
        INT,
        List.of(Q),
        CelFunctionBinding.from(
            "quantity_get_int", QuantityValue.class, QuantityLibrary::asInteger));
    t.member(
        "isInteger",
        "quantity_is_integer",
        BOOL,
        List.of(Q),
        CelFunctionBinding.from(
            "quantity_is_integer", QuantityValue.class, q -> q.quantity().asLong().isPresent()));
    t.member(
        "add",
        "quantity_add",
        Q,
        List.of(Q, Q),
        CelFunctionBinding.from(
            "quantity_add",
            QuantityValue.class,
            QuantityValue.class,
            (a, b) -> new QuantityValue(a.quantity().add(b.quantity()))));
    t.member(
        "add",
        "quantity_add_int",
        Q,
        List.of(Q, INT),
        CelFunctionBinding.from(
            "quantity_add_int",
            QuantityValue.class,
            Long.class,
            (a, b) -> new QuantityValue(a.quantity().add(ofInt(b)))));
    t.member(
        "sub",
        "quantity_sub",
        Q,
        List.of(Q, Q),
        CelFunctionBinding.from(
            "quantity_sub",
            QuantityValue.class,
            QuantityValue.class,
            (a, b) -> new QuantityValue(a.quantity().subtract(b.quantity()))));
    t.member(
        "sub",
        "quantity_sub_int",
        Q,
        List.of(Q, INT),
        CelFunctionBinding.from(
            "quantity_sub_int",
            QuantityValue.class,
            Long.class,
            (a, b) -> new QuantityValue(a.quantity().subtract(ofInt(b)))));
  }

  /**
   * As upstream: an int operand is a DecimalExponent quantity (a zero left side takes its format).
   */
  private static Quantity ofInt(long v) {
    return Quantity.ofLong(v, Quantity.Format.DECIMAL_EXPONENT);
  }

  private static QuantityValue parse(String s) throws CelEvaluationException {
    try {
      return QuantityValue.parse(s);
    } catch (IllegalArgumentException e) {
      throw new CelEvaluationException(e.getMessage());
    }
  }

  private static boolean isQuantity(String s) {
    try {
      QuantityValue.parse(s);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static long asInteger(QuantityValue q) throws CelEvaluationException {
    var v = q.quantity().asLong();
    if (v.isEmpty()) {
      throw new CelEvaluationException("cannot convert value to integer");
    }
    return v.getAsLong();
  }
}
