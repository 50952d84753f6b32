package io.jdra.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelExpr.CelCall;
import dev.cel.common.ast.CelExpr.CelComprehension;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compile-time worst-case cost of an expression: cel-go's checker cost model (the one Kubernetes
 * uses) applied to a CEL-Java checked AST, with the Kubernetes library costs and the DRA size
 * bounds of {@link DeviceSizes}. Results match upstream's estimates for the same expression. One
 * instance per estimate (it keeps per-expression state).
 */
final class CostEstimator {
  static final double STRING_TRAVERSAL = 0.1;
  static final double REGEX_LENGTH = 0.25;
  private static final Cost LIST_CREATE = Cost.fixed(10);
  private static final Cost MAP_CREATE = Cost.fixed(30);
  private static final Cost STRUCT_CREATE = Cost.fixed(40);

  /** How big a collection is and how big its keys/values are, for literals and accumulators. */
  private record EntrySize(CelKind container, Cost key, Cost value) {
    EntrySize union(EntrySize o) {
      return o == null ? null : new EntrySize(container, key.union(o.key), value.union(o.value));
    }
  }

  private record LocalVar(List<String> path, Cost size, EntrySize entrySize) {}

  private final CelAbstractSyntaxTree ast;
  private final Map<Long, List<String>> paths = new HashMap<>();
  private final Map<Long, Cost> sizes = new HashMap<>();
  private final Map<Long, EntrySize> entrySizes = new HashMap<>();
  private final Map<String, Deque<LocalVar>> locals = new HashMap<>();

  private CostEstimator(CelAbstractSyntaxTree ast) {
    this.ast = ast;
  }

  /** The estimated maximum cost, saturated at Long.MAX_VALUE. */
  static long estimate(CelAbstractSyntaxTree ast) {
    return new CostEstimator(ast).cost(ast.getExpr()).maxSaturated();
  }

  private Cost cost(CelExpr e) {
    return switch (e.exprKind().getKind()) {
      case CONSTANT -> Cost.ZERO;
      case IDENT -> costIdent(e);
      case SELECT -> costSelect(e);
      case CALL -> costCall(e);
      case LIST -> costList(e);
      case MAP -> costMap(e);
      case STRUCT -> costStruct(e);
      case COMPREHENSION -> isBind(e.comprehension()) ? costBind(e) : costComprehension(e);
      default -> Cost.ZERO;
    };
  }

  private Cost costIdent(CelExpr e) {
    String name = e.ident().name();
    LocalVar v = peek(name);
    paths.put(e.id(), v != null ? v.path() : List.of(name));
    return Cost.ONE;
  }

  private Cost costSelect(CelExpr e) {
    var sel = e.select();
    if (sel.testOnly()) {
      // Kubernetes sets PresenceTestHasCost(false): has() costs only its operand.
      return cost(sel.operand());
    }
    Cost sum = cost(sel.operand());
    CelKind k = type(sel.operand()).kind();
    if (k == CelKind.MAP || k == CelKind.STRUCT || k == CelKind.TYPE_PARAM) {
      sum = sum.add(Cost.ONE);
    }
    paths.put(e.id(), append(path(sel.operand()), sel.field()));
    return sum;
  }

  private Cost costCall(CelExpr e) {
    CelCall call = e.call();
    if (call.function().equals("dyn") && call.args().size() == 1) {
      Cost argCost = cost(call.args().get(0));
      copySizes(e, call.args().get(0));
      return Cost.ONE.add(argCost);
    }
    List<CelExpr> args = call.args();
    List<Cost> argCosts = new ArrayList<>(args.size());
    for (CelExpr a : args) {
      argCosts.add(cost(a));
    }
    List<String> overloads =
        ast.getReference(e.id())
            .map(CelReference::overloadIds)
            .orElse(com.google.common.collect.ImmutableList.of());
    if (overloads.isEmpty()) {
      return Cost.ZERO;
    }
    Cost sum = Cost.ZERO;
    CelExpr target = call.target().orElse(null);
    if (target != null) {
      sum = sum.add(cost(target));
    }
    Cost fnCost = new Cost(Cost.UNKNOWN_MAX, 0);
    Cost resultSize = null;
    for (String overload : overloads) {
      Cost[] size = new Cost[1];
      Cost c = functionCost(e, call.function(), overload, target, args, argCosts, size);
      fnCost = fnCost.union(c);
      if (size[0] != null) {
        resultSize = resultSize == null ? size[0] : resultSize.union(size[0]);
      }
      if (overload.equals("index_list") || overload.equals("index_map")) {
        if (!args.isEmpty()) {
          EntrySize es = entrySizes.get(args.get(0).id());
          resultSize = es == null ? null : es.value();
          paths.put(
              e.id(),
              append(path(args.get(0)), overload.equals("index_list") ? "@items" : "@values"));
        }
      }
      if (resultSize == null) {
        resultSize = computeSize(e);
      }
    }
    if (resultSize != null) {
      sizes.put(e.id(), resultSize);
    }
    return sum.add(fnCost);
  }

  private Cost costList(CelExpr e) {
    Cost sum = Cost.ZERO;
    List<CelExpr> elements = e.list().elements();
    Cost itemSize = new Cost(elements.isEmpty() ? 0 : Cost.UNKNOWN_MAX, 0);
    for (CelExpr el : elements) {
      sum = sum.add(cost(el));
      itemSize = itemSize.union(sizeOrUnknown(el));
    }
    entrySizes.put(e.id(), new EntrySize(CelKind.LIST, Cost.ONE, itemSize));
    return sum.add(LIST_CREATE);
  }

  private Cost costMap(CelExpr e) {
    Cost sum = Cost.ZERO;
    var entries = e.map().entries();
    Cost keySize = new Cost(entries.isEmpty() ? 0 : Cost.UNKNOWN_MAX, 0);
    Cost valSize = keySize;
    for (var entry : entries) {
      sum = sum.add(cost(entry.key())).add(cost(entry.value()));
      keySize = keySize.union(sizeOrUnknown(entry.key()));
      valSize = valSize.union(sizeOrUnknown(entry.value()));
    }
    entrySizes.put(e.id(), new EntrySize(CelKind.MAP, keySize, valSize));
    return sum.add(MAP_CREATE);
  }

  private Cost costStruct(CelExpr e) {
    Cost sum = Cost.ZERO;
    for (var field : e.struct().entries()) {
      sum = sum.add(cost(field.value()));
    }
    return sum.add(STRUCT_CREATE);
  }

  private Cost costComprehension(CelExpr e) {
    CelComprehension comp = e.comprehension();
    Cost sum = cost(comp.iterRange()).add(cost(comp.accuInit()));
    pushLocal(comp.accuVar(), comp.accuInit());
    boolean twoVars = !comp.iterVar2().isEmpty();
    if (twoVars) {
      pushIter(comp.iterVar(), comp.iterRange(), true, false);
      pushIter(comp.iterVar2(), comp.iterRange(), false, false);
    } else {
      pushIter(comp.iterVar(), comp.iterRange(), true, true);
    }
    Cost loopCost = cost(comp.loopCondition());
    Cost stepCost = cost(comp.loopStep());
    pop(comp.iterVar());
    if (twoVars) {
      pop(comp.iterVar2());
    }
    sum = sum.add(cost(comp.result()));
    pop(comp.accuVar());
    Cost rangeCount = sizeOrUnknown(comp.iterRange());
    sum = sum.add(rangeCount.multiply(stepCost.add(loopCost)));
    switch (comp.accuInit().exprKind().getKind()) {
      case CONSTANT -> {
        Cost s = computeSize(comp.accuInit());
        if (s != null) {
          sizes.put(e.id(), s);
        }
      }
      case LIST, MAP -> {
        sizes.put(e.id(), rangeCount);
        EntrySize stepEntry = entrySize(comp.loopStep());
        if (stepEntry != null) {
          entrySizes.put(e.id(), stepEntry);
        }
      }
      default -> {}
    }
    return sum;
  }

  private static boolean isBind(CelComprehension comp) {
    CelExpr range = comp.iterRange();
    CelExpr cond = comp.loopCondition();
    return range.exprKind().getKind() == CelExpr.ExprKind.Kind.LIST
        && range.list().elements().isEmpty()
        && cond.exprKind().getKind() == CelExpr.ExprKind.Kind.CONSTANT
        && cond.constant().getKind() == CelConstant.Kind.BOOLEAN_VALUE
        && !cond.constant().booleanValue()
        && !comp.accuVar().equals("__result__")
        && !comp.accuVar().equals("@result");
  }

  private Cost costBind(CelExpr e) {
    CelComprehension comp = e.comprehension();
    Cost sum = cost(comp.iterRange()).add(cost(comp.accuInit()));
    pushLocal(comp.accuVar(), comp.accuInit());
    sum = sum.add(cost(comp.result()));
    pop(comp.accuVar());
    copySizes(e, comp.result());
    return sum;
  }

  // ---- function costs

  private Cost functionCost(
      CelExpr e,
      String function,
      String overload,
      CelExpr target,
      List<CelExpr> args,
      List<Cost> argCosts,
      Cost[] resultSize) {
    Cost argSum = Cost.ZERO;
    for (Cost c : argCosts) {
      argSum = argSum.add(c);
    }
    Cost library = libraryCost(function, overload, target, args, resultSize);
    if (library != null) {
      return library.add(argSum);
    }
    switch (function) {
      case SortByMacro.FUNCTION -> {
        // cel-go's estimateListSortBy: O(n^2) over the keys, factor 2 (+ traversal for strings).
        if (target != null && args.size() == 1) {
          Cost sz = sizeOrUnknown(args.get(0));
          resultSize[0] = sizeOrUnknown(target);
          CelType key = elementType(type(args.get(0)));
          double factor =
              key.kind() == CelKind.STRING || key.kind() == CelKind.BYTES
                  ? 2 + STRING_TRAVERSAL
                  : 2;
          return sz.multiply(sz)
              .multiplyByFactor(factor)
              .add(Cost.ONE)
              .add(LIST_CREATE)
              .add(argSum);
        }
      }
      case "format" -> {
        if (target != null) {
          return sizeOrUnknown(target).multiplyByFactor(STRING_TRAVERSAL).add(argSum);
        }
      }
      case "quote" -> {
        if (args.size() == 1) {
          Cost sz = sizeOrUnknown(args.get(0));
          resultSize[0] =
              new Cost(Cost.addSat(sz.min(), 2), Cost.addSat(Cost.mulSat(sz.max(), 2), 2));
          return sz.multiplyByFactor(STRING_TRAVERSAL).add(argSum);
        }
      }
      case "startsWith", "endsWith" -> {
        if (args.size() == 1) {
          return sizeOrUnknown(args.get(0)).multiplyByFactor(STRING_TRAVERSAL).add(argSum);
        }
      }
      case "@in" -> {
        if (args.size() == 2 && overload.startsWith("in_list")) {
          return sizeOrUnknown(args.get(1)).multiplyByFactor(1).add(argSum);
        }
      }
      case "matches" -> {
        CelExpr str = target != null ? target : (args.size() == 2 ? args.get(0) : null);
        CelExpr re =
            target != null && args.size() == 1
                ? args.get(0)
                : (args.size() == 2 ? args.get(1) : null);
        if (str != null && re != null) {
          Cost strCost = sizeOrUnknown(str).add(Cost.ONE).multiplyByFactor(STRING_TRAVERSAL);
          Cost reCost = sizeOrUnknown(re).multiplyByFactor(REGEX_LENGTH);
          return strCost.multiply(reCost).add(argSum);
        }
      }
      case "contains" -> {
        if (target != null && args.size() == 1 && type(target).kind() == CelKind.STRING) {
          Cost strCost = sizeOrUnknown(target).multiplyByFactor(STRING_TRAVERSAL);
          Cost subCost = sizeOrUnknown(args.get(0)).multiplyByFactor(STRING_TRAVERSAL);
          return strCost.multiply(subCost).add(argSum);
        }
      }
      case "_||_", "_&&_" -> {
        Cost lhs = argCosts.get(0);
        Cost rhs = argCosts.get(1);
        return new Cost(lhs.min(), lhs.add(rhs).max());
      }
      case "_?_:_" -> {
        Cost size = sizeOrUnknown(args.get(1)).union(sizeOrUnknown(args.get(2)));
        EntrySize a = entrySize(args.get(1));
        EntrySize b = entrySize(args.get(2));
        if (a != null && b != null) {
          entrySizes.put(e.id(), a.union(b));
        }
        resultSize[0] = size;
        return argCosts.get(0).add(argCosts.get(1).union(argCosts.get(2)));
      }
      case "_+_" -> {
        CelKind k = type(e).kind();
        if (args.size() == 2 && (k == CelKind.STRING || k == CelKind.BYTES || k == CelKind.LIST)) {
          Cost size = sizeOrUnknown(args.get(0)).add(sizeOrUnknown(args.get(1)));
          EntrySize a = entrySize(args.get(0));
          EntrySize b = entrySize(args.get(1));
          if (a != null && b != null) {
            entrySizes.put(e.id(), a.union(b));
          }
          resultSize[0] = size;
          return k == CelKind.LIST
              ? Cost.ONE.add(argSum)
              : size.multiplyByFactor(STRING_TRAVERSAL).add(argSum);
        }
      }
      case "_==_", "_!=_", "_<_", "_>_", "_<=_", "_>=_" -> {
        boolean equality = function.equals("_==_") || function.equals("_!=_");
        CelKind k = type(args.get(0)).kind();
        if (equality || k == CelKind.STRING || k == CelKind.BYTES) {
          Cost lhs = sizeOrUnknown(args.get(0));
          Cost rhs = sizeOrUnknown(args.get(1));
          long smallestMax = Long.compareUnsigned(rhs.max(), lhs.max()) < 0 ? rhs.max() : lhs.max();
          long min = smallestMax != 0 ? 1 : 0;
          return new Cost(min, smallestMax).multiplyByFactor(STRING_TRAVERSAL).add(argSum);
        }
      }
      default -> {}
    }
    return Cost.ONE.add(argSum);
  }

  /** Costs of the Kubernetes libraries (library.CostEstimator) and DRA's includes; null if none. */
  private Cost libraryCost(
      String function, String overload, CelExpr target, List<CelExpr> args, Cost[] resultSize) {
    switch (function) {
      case "includes":
        if (target != null) {
          return new Cost(0, ListsLibrary.MAX_ATTRIBUTE_VALUES);
        }
        return null;
      case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf":
        if (target != null && type(target).kind() == CelKind.LIST) {
          Cost elCost = Cost.ONE;
          CelType elemType = elementType(type(target));
          List<String> itemsPath = append(path(target), "@items");
          if (elemType.kind() == CelKind.STRING || elemType.kind() == CelKind.BYTES) {
            Cost sz = orUnknown(DeviceSizes.estimate(itemsPath));
            elCost = elCost.add(sz.multiplyByFactor(STRING_TRAVERSAL));
          }
          return sizeOrUnknown(target).multiply(elCost);
        }
        if (target != null && !function.equals("indexOf") && !function.equals("lastIndexOf")) {
          return sizeOrUnknown(target).multiplyByFactor(STRING_TRAVERSAL);
        }
        return null;
      case "lowerAscii", "upperAscii", "substring", "trim":
        if (target != null) {
          Cost sz = sizeOrUnknown(target);
          resultSize[0] = sz;
          return sz.multiplyByFactor(STRING_TRAVERSAL);
        }
        return null;
      case "replace":
        if (target != null && args.size() >= 2) {
          return replaceCost(target, args, resultSize);
        }
        return null;
      case "split":
        if (target != null) {
          Cost sz = sizeOrUnknown(target);
          long max = sz.max();
          if (args.size() > 1
              && args.get(1).exprKind().getKind() == CelExpr.ExprKind.Kind.CONSTANT
              && args.get(1).constant().getKind() == CelConstant.Kind.INT64_VALUE) {
            max = args.get(1).constant().int64Value();
          }
          resultSize[0] = new Cost(0, max);
          return sz.multiplyByFactor(2 * STRING_TRAVERSAL);
        }
        return null;
      case "join":
        if (target != null) {
          return joinCost(target, args, resultSize);
        }
        return null;
      case "find", "findAll":
        if (target != null && !args.isEmpty()) {
          Cost sz = sizeOrUnknown(target);
          Cost strCost = sz.add(Cost.ONE).multiplyByFactor(STRING_TRAVERSAL);
          Cost reCost = sizeOrUnknown(args.get(0)).multiplyByFactor(REGEX_LENGTH);
          resultSize[0] = new Cost(0, sz.max());
          return strCost.multiply(reCost);
        }
        return null;
      case "quantity",
      "isQuantity",
      "semver",
      "isSemver",
      "ip",
      "isIP",
      "ip.isCanonical",
      "cidr",
      "isCIDR":
        if (!args.isEmpty()) {
          return sizeOrUnknown(args.get(0)).multiplyByFactor(STRING_TRAVERSAL);
        }
        return null;
      case "sign",
      "asInteger",
      "isInteger",
      "asApproximateFloat",
      "isGreaterThan",
      "isLessThan",
      "compareTo",
      "add",
      "sub",
      "major",
      "minor",
      "patch",
      "family",
      "isUnspecified",
      "isLoopback",
      "isLinkLocalMulticast",
      "isLinkLocalUnicast",
      "isGlobalUnicast",
      "containsIP",
      "containsCIDR",
      "masked",
      "prefixLength":
        return Cost.ONE;
      case "_==_":
        if (args.size() == 2) {
          CelType l = type(args.get(0));
          if (l.equals(type(args.get(1)))
              && (l.name().equals(QuantityValue.TYPE.name())
                  || l.name().equals(Semver.TYPE.name()))) {
            return Cost.ONE;
          }
        }
        return null;
      default:
        return null;
    }
  }

  private Cost replaceCost(CelExpr target, List<CelExpr> args, Cost[] resultSize) {
    Cost sz = sizeOrUnknown(target);
    Cost from = sizeOrUnknown(args.get(0));
    Cost with = sizeOrUnknown(args.get(1));
    long countMax;
    long retainedMax = 0;
    if (from.min() == 0) {
      countMax = sz.max() != Cost.UNKNOWN_MAX ? sz.max() + 1 : sz.max();
      retainedMax = sz.max();
    } else if (Long.compareUnsigned(with.max(), from.min()) <= 0) {
      countMax = 0;
      retainedMax = sz.max();
    } else {
      countMax =
          (long) Math.ceil(Cost.unsignedToDouble(sz.max()) / Cost.unsignedToDouble(from.min()));
    }
    long countMin;
    long retainedMin = 0;
    if (from.max() == 0) {
      countMin = sz.min() != Cost.UNKNOWN_MAX ? sz.min() + 1 : sz.min();
      retainedMin = sz.min();
    } else if (Long.compareUnsigned(from.max(), with.min()) <= 0) {
      countMin = 0;
      retainedMin = sz.min();
    } else {
      countMin =
          (long) Math.ceil(Cost.unsignedToDouble(sz.min()) / Cost.unsignedToDouble(from.max()));
    }
    resultSize[0] =
        new Cost(countMin, countMax).multiply(with).add(new Cost(retainedMin, retainedMax));
    return sz.multiplyByFactor(2 * STRING_TRAVERSAL);
  }

  private Cost joinCost(CelExpr target, List<CelExpr> args, Cost[] resultSize) {
    Cost listSize = sizeOrUnknown(target);
    Cost sz = Cost.ZERO;
    if (type(target).kind() == CelKind.LIST) {
      Cost elemSize = orUnknown(DeviceSizes.estimate(append(path(target), "@items")));
      sz = listSize.multiply(elemSize);
    }
    if (!args.isEmpty()) {
      Cost sep = sizeOrUnknown(args.get(0));
      long minSep = listSize.min() > 0 ? listSize.min() - 1 : 0;
      long maxSep = listSize.max() != 0 ? listSize.max() - 1 : 0;
      sz = sz.add(sep.multiply(new Cost(minSep, maxSep)));
    }
    resultSize[0] = sz;
    return sz.multiplyByFactor(STRING_TRAVERSAL);
  }

  // ---- sizes and paths

  private Cost sizeOrUnknown(CelExpr e) {
    return orUnknown(computeSize(e));
  }

  private static Cost orUnknown(Cost c) {
    return c != null ? c : Cost.UNKNOWN;
  }

  private Cost computeSize(CelExpr e) {
    Cost known = sizes.get(e.id());
    if (known != null) {
      return known;
    }
    Cost literal = literalSize(e);
    if (literal != null) {
      return literal;
    }
    Cost estimated = DeviceSizes.estimate(path(e));
    if (estimated != null) {
      sizes.put(e.id(), estimated);
      return estimated;
    }
    if (isScalar(type(e))) {
      return Cost.ONE;
    }
    if (e.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT) {
      LocalVar v = peek(e.ident().name());
      if (v != null && v.size() != null) {
        return v.size();
      }
    }
    return null;
  }

  private static Cost literalSize(CelExpr e) {
    return switch (e.exprKind().getKind()) {
      case CONSTANT -> {
        CelConstant c = e.constant();
        yield switch (c.getKind()) {
          case STRING_VALUE ->
              Cost.fixed(c.stringValue().codePointCount(0, c.stringValue().length()));
          case BYTES_VALUE -> Cost.fixed(c.bytesValue().size());
          case NOT_SET -> null;
          default -> Cost.ONE;
        };
      }
      case LIST -> Cost.fixed(e.list().elements().size());
      case MAP -> Cost.fixed(e.map().entries().size());
      default -> null;
    };
  }

  private static boolean isScalar(CelType t) {
    return switch (t.kind()) {
      case BOOL, DOUBLE, DURATION, INT, TIMESTAMP, UINT -> true;
      case OPAQUE ->
          t.name().equals("optional_type")
              && !t.parameters().isEmpty()
              && isScalar(t.parameters().get(0));
      default -> false;
    };
  }

  private EntrySize entrySize(CelExpr e) {
    EntrySize known = entrySizes.get(e.id());
    if (known != null) {
      return known;
    }
    if (e.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT) {
      LocalVar v = peek(e.ident().name());
      if (v != null) {
        return v.entrySize();
      }
    }
    return null;
  }

  private void copySizes(CelExpr dst, CelExpr src) {
    Cost s = computeSize(src);
    if (s != null) {
      sizes.put(dst.id(), s);
    }
    EntrySize es = entrySize(src);
    if (es != null) {
      entrySizes.put(dst.id(), es);
    }
  }

  private CelType type(CelExpr e) {
    return ast.getType(e.id()).orElse(SimpleType.DYN);
  }

  private static CelType elementType(CelType listType) {
    return listType instanceof ListType l && l.hasElemType() ? l.elemType() : SimpleType.DYN;
  }

  private List<String> path(CelExpr e) {
    if (e.exprKind().getKind() == CelExpr.ExprKind.Kind.IDENT) {
      LocalVar v = peek(e.ident().name());
      if (v != null) {
        return v.path();
      }
    }
    return paths.getOrDefault(e.id(), List.of());
  }

  private static List<String> append(List<String> path, String element) {
    if (path.isEmpty()) {
      return List.of();
    }
    List<String> out = new ArrayList<>(path.size() + 1);
    out.addAll(path);
    out.add(element);
    return List.copyOf(out);
  }

  private LocalVar peek(String name) {
    Deque<LocalVar> stack = locals.get(name);
    return stack == null || stack.isEmpty() ? null : stack.peek();
  }

  private void pop(String name) {
    locals.get(name).pop();
  }

  private void push(String name, LocalVar v) {
    locals.computeIfAbsent(name, n -> new ArrayDeque<>()).push(v);
  }

  private void pushLocal(String name, CelExpr e) {
    push(name, new LocalVar(path(e), computeSize(e), entrySize(e)));
  }

  /**
   * Binds a comprehension variable: key (or the single variable of a map range), value (or the
   * single variable of a list range).
   */
  private void pushIter(String name, CelExpr range, boolean key, boolean single) {
    EntrySize es = entrySize(range);
    CelKind container = es != null ? es.container() : type(range).kind();
    boolean list = container == CelKind.LIST;
    Cost size;
    String sub;
    if (single) {
      size = es == null ? null : (list ? es.value() : es.key());
      sub = list ? "@items" : "@keys";
    } else if (key) {
      size = es == null ? null : es.key();
      sub = list ? "@indices" : "@keys";
    } else {
      size = es == null ? null : es.value();
      sub = list ? "@items" : "@values";
    }
    push(name, new LocalVar(append(path(range), sub), size, null));
  }
}
