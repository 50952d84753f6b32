package io.jdra.cel;

import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypes;
import dev.cel.validator.CelAstValidator;
import java.util.List;
import java.util.Optional;

/**
 * cel-go's {@code ValidateHomogeneousAggregateLiterals}, which Kubernetes' base environment runs
 * after type-checking: the elements of a list literal, and the keys and the values of a map
 * literal, must all have one type. Literals inside the arguments of a {@code format} call (at any
 * nesting of lists and maps) are exempt, so {@code "%s-%d".format(["gpu", 3])} is a {@code
 * list(dyn)} whose verbs {@code format} checks at run time. Errors name the offending element, as
 * cel-go does.
 */
final class HomogeneousLiterals implements CelAstValidator {
  static final HomogeneousLiterals INSTANCE = new HomogeneousLiterals();

  private HomogeneousLiterals() {}

  @Override
  public void validate(CelNavigableAst navigable, Cel cel, IssuesFactory issues) {
    CelAbstractSyntaxTree ast = navigable.getAst();
    navigable
        .getRoot()
        .allNodes()
        .forEach(node -> {
          CelExpr e = node.expr();
          switch (e.getKind()) {
            case LIST -> {
              if (!inFormatArguments(node)) {
                checkList(ast, e.list(), issues);
              }
            }
            case MAP -> {
              if (!inFormatArguments(node)) {
                checkMap(ast, e.map(), issues);
              }
            }
            default -> {}
          }
        });
  }

  private static void checkList(CelAbstractSyntaxTree ast, CelExpr.CelList list, IssuesFactory is) {
    List<CelExpr> elements = list.elements();
    CelType first = null;
    for (int i = 0; i < elements.size(); i++) {
      Optional<CelType> t = ast.getType(elements.get(i).id());
      if (t.isEmpty()) {
        return;
      }
      CelType type = list.optionalIndices().contains(i) ? optionalValue(t.get()) : t.get();
      if (first == null) {
        first = type;
      } else if (!equivalent(first, type)) {
        mismatch(is, elements.get(i).id(), first, type);
        return;
      }
    }
  }

  private static void checkMap(CelAbstractSyntaxTree ast, CelExpr.CelMap map, IssuesFactory is) {
    CelType keyType = null;
    CelType valueType = null;
    for (CelExpr.CelMap.Entry entry : map.entries()) {
      Optional<CelType> k = ast.getType(entry.key().id());
      Optional<CelType> v = ast.getType(entry.value().id());
      if (k.isEmpty() || v.isEmpty()) {
        return;
      }
      CelType value = entry.optionalEntry() ? optionalValue(v.get()) : v.get();
      if (keyType == null) {
        keyType = k.get();
        valueType = value;
        continue;
      }
      if (!equivalent(keyType, k.get())) {
        mismatch(is, entry.key().id(), keyType, k.get());
      }
      if (!equivalent(valueType, value)) {
        mismatch(is, entry.value().id(), valueType, value);
      }
    }
  }

  /** Whether the literal is an argument of {@code format}, directly or inside other literals. */
  private static boolean inFormatArguments(CelNavigableExpr node) {
    Optional<CelNavigableExpr> parent = node.parent();
    while (parent.isPresent()) {
      CelExpr p = parent.get().expr();
      switch (p.getKind()) {
        case CALL -> {
          return p.call().function().equals("format");
        }
        case LIST, MAP -> parent = parent.get().parent();
        default -> {
          return false;
        }
      }
    }
    return false;
  }

  private static CelType optionalValue(CelType optional) {
    return optional.parameters().isEmpty() ? optional : optional.parameters().get(0);
  }

  /** cel-go's {@code IsEquivalentType}: same kind, name and parameters. */
  private static boolean equivalent(CelType a, CelType b) {
    if (a.kind() != b.kind()
        || !a.name().equals(b.name())
        || a.parameters().size() != b.parameters().size()) {
      return false;
    }
    for (int i = 0; i < a.parameters().size(); i++) {
      if (!equivalent(a.parameters().get(i), b.parameters().get(i))) {
        return false;
      }
    }
    return true;
  }

  private static void mismatch(IssuesFactory is, long id, CelType expected, CelType actual) {
    is.addError(
        id,
        "expected type '"
            + CelTypes.format(expected)
            + "' but found '"
            + CelTypes.format(actual)
            + "'");
  }
}
