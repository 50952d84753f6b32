package io.jdra.cel;

import static dev.cel.common.types.SimpleType.BOOL;
import static dev.cel.common.types.SimpleType.BYTES;
import static dev.cel.common.types.SimpleType.DOUBLE;
import static dev.cel.common.types.SimpleType.DURATION;
import static dev.cel.common.types.SimpleType.INT;
import static dev.cel.common.types.SimpleType.STRING;
import static dev.cel.common.types.SimpleType.TIMESTAMP;
import static dev.cel.common.types.SimpleType.UINT;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelIssue;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.TypeParamType;
import dev.cel.parser.CelMacro;
import dev.cel.parser.CelMacroExprFactory;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * cel-go's {@code sortBy} (lists extension version 2, in Kubernetes' base environment since 1.34):
 * {@code list.sortBy(e, keyExpr)} expands, as cel-go expands it, to a binding of the list and a
 * call of {@code @sortByAssociatedKeys} with the list of keys, so no mixed-type literal appears
 * (CEL-Java's own expansion pairs each element with its key in a list literal, which Kubernetes'
 * homogeneous literal check rejects). Keys must be of one comparable type.
 */
final class SortByMacro {
  static final String FUNCTION = "@sortByAssociatedKeys";
  private static final String INPUT = "@__sortBy_input__";

  /** cel-go's comparable types, in its order. */
  private static final Map<String, CelType> KEY_TYPES = new LinkedHashMap<>();

  static {
    KEY_TYPES.put("int", INT);
    KEY_TYPES.put("uint", UINT);
    KEY_TYPES.put("double", DOUBLE);
    KEY_TYPES.put("bool", BOOL);
    KEY_TYPES.put("duration", DURATION);
    KEY_TYPES.put("timestamp", TIMESTAMP);
    KEY_TYPES.put("string", STRING);
    KEY_TYPES.put("bytes", BYTES);
  }

  static final CelMacro MACRO = CelMacro.newReceiverMacro("sortBy", 2, SortByMacro::expand);

  private SortByMacro() {}

  private static Optional<CelExpr> expand(
      CelMacroExprFactory f, CelExpr target, ImmutableList<CelExpr> args) {
    switch (target.exprKind().getKind()) {
      case LIST, SELECT, IDENT, COMPREHENSION, CALL -> {}
      default -> {
        return Optional.of(
            error(
                f,
                target,
                "sortBy can only be applied to a list, identifier, comprehension, call or select"
                    + " expression"));
      }
    }
    CelExpr var = args.get(0);
    if (var.exprKind().getKind() != CelExpr.ExprKind.Kind.IDENT) {
      return Optional.of(error(f, var, "argument is not an identifier"));
    }
    String accu = f.getAccumulatorVarName();
    CelExpr keys =
        f.fold(
            var.ident().name(),
            f.newIdentifier(INPUT),
            accu,
            f.newList(),
            f.newBoolLiteral(true),
            f.newGlobalCall("_+_", f.newIdentifier(accu), f.newList(args.get(1))),
            f.newIdentifier(accu));
    CelExpr sorted = f.newReceiverCall(FUNCTION, f.newIdentifier(INPUT), keys);
    return Optional.of(
        f.fold(
            "#unused",
            f.newList(),
            INPUT,
            target,
            f.newBoolLiteral(false),
            f.newIdentifier(INPUT),
            sorted));
  }

  /** An error at the offending expression, where cel-go reports it. */
  private static CelExpr error(CelMacroExprFactory f, CelExpr at, String message) {
    return f.reportError(CelIssue.formatError(at.id(), f.getSourceLocation(at), message));
  }

  static void register(FunctionTable t) {
    CelType list = ListType.create(TypeParamType.create("T"));
    KEY_TYPES.forEach((name, type) -> {
      String id = "list_" + name + "_sortByAssociatedKeys";
      t.member(
          FUNCTION,
          id,
          list,
          List.of(list, ListType.create(type)),
          CelFunctionBinding.from(id, List.class, List.class, SortByMacro::sortByKeys));
    });
  }

  /** cel-go's {@code sortListByAssociatedKeys}; ties keep their order. */
  private static List<Object> sortByKeys(List<?> list, List<?> keys) throws CelEvaluationException {
    if (list.size() != keys.size()) {
      throw new CelEvaluationException(
          "@sortByAssociatedKeys() expected a list of the same size as the associated keys list,"
              + " but got "
              + list.size()
              + " and "
              + keys.size()
              + " elements respectively");
    }
    if (list.isEmpty()) {
      return List.of();
    }
    Class<?> keyClass = keys.get(0).getClass();
    for (Object k : keys) {
      if (k.getClass() != keyClass) {
        throw new CelEvaluationException("list elements must have the same type");
      }
    }
    if (!(keys.get(0) instanceof Comparable<?>)
        && !(keys.get(0) instanceof dev.cel.common.values.CelByteString)) {
      throw new CelEvaluationException("list elements must be comparable");
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparing(i -> keys.get(i), ListsLibrary::compare));
    List<Object> out = new ArrayList<>(list.size());
    for (int i : order) {
      out.add(list.get(i));
    }
    return out;
  }
}
