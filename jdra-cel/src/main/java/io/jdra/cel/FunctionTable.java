package io.jdra.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelFunctionOverload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects the declarations and runtime bindings of the libraries this module adds, grouping
 * overloads of one function name into one declaration (several libraries share names such as {@code
 * compareTo}).
 */
final class FunctionTable {
  private final Map<String, List<CelOverloadDecl>> overloads = new LinkedHashMap<>();
  private final Map<String, List<CelFunctionBinding>> bindingsByFunction = new LinkedHashMap<>();
  private final List<CelFunctionBinding> extraBindings = new ArrayList<>();

  FunctionTable member(
      String name, String id, CelType result, List<CelType> params, CelFunctionBinding binding) {
    overloads
        .computeIfAbsent(name, n -> new ArrayList<>())
        .add(CelOverloadDecl.newMemberOverload(id, result, params));
    bindingsByFunction.computeIfAbsent(name, n -> new ArrayList<>()).add(binding);
    return this;
  }

  FunctionTable global(
      String name, String id, CelType result, List<CelType> params, CelFunctionBinding binding) {
    overloads
        .computeIfAbsent(name, n -> new ArrayList<>())
        .add(CelOverloadDecl.newGlobalOverload(id, result, params));
    bindingsByFunction.computeIfAbsent(name, n -> new ArrayList<>()).add(binding);
    return this;
  }

  /** A runtime binding for an overload declared elsewhere (replaces a standard one). */
  FunctionTable binding(CelFunctionBinding binding) {
    extraBindings.add(binding);
    return this;
  }

  List<CelFunctionDecl> declarations() {
    List<CelFunctionDecl> out = new ArrayList<>();
    overloads.forEach((name, list) -> out.add(CelFunctionDecl.newFunctionDeclaration(name, list)));
    return out;
  }

  /**
   * The runtime bindings. Each function's overloads are also bound under the function name, so that
   * calls on dyn values (attributes) dispatch at run time as in cel-go.
   */
  List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> out = new ArrayList<>(extraBindings);
    bindingsByFunction.forEach((name, list) -> {
      List<CelFunctionBinding> wrapped = new ArrayList<>();
      for (CelFunctionBinding own : list) {
        wrapped.add(dispatching(name, own, list));
      }
      out.addAll(CelFunctionBinding.fromOverloads(name, wrapped));
    });
    return out;
  }

  /**
   * Binds {@code own}'s overload id to a dispatcher that accepts any arguments, tries {@code own}
   * and then the function's other overloads of the same arity, and otherwise fails as cel-go does
   * ("no such overload: isGreaterThan(string, kubernetes.Quantity)"). Attributes are dyn, so the
   * checker cannot always pick the overload, and CEL-Java's own failure names no types.
   */
  private static CelFunctionBinding dispatching(
      String name, CelFunctionBinding own, List<CelFunctionBinding> all) {
    int arity = own.getArgTypes().size();
    List<CelFunctionBinding> candidates = new ArrayList<>();
    candidates.add(own);
    for (CelFunctionBinding b : all) {
      if (b != own && b.getArgTypes().size() == arity) {
        candidates.add(b);
      }
    }
    CelFunctionOverload dispatch =
        args -> {
          for (CelFunctionBinding b : candidates) {
            if (CelFunctionOverload.canHandle(args, b.getArgTypes(), b.isStrict())) {
              return b.getDefinition().apply(args);
            }
          }
          StringBuilder types = new StringBuilder();
          for (Object a : args) {
            types.append(types.length() == 0 ? "" : ", ").append(ValueTypes.typeName(a));
          }
          throw new dev.cel.runtime.CelEvaluationException(
              "no such overload: " + name + "(" + types + ")");
        };
    // Unary and binary bindings must be built with the typed factories: the planner calls them
    // through its optimized single/double-argument paths.
    String id = own.getOverloadId();
    return switch (arity) {
      case 1 -> CelFunctionBinding.from(id, Object.class, a -> dispatch.apply(new Object[] {a}));
      case 2 ->
          CelFunctionBinding.from(
              id, Object.class, Object.class, (a, b) -> dispatch.apply(new Object[] {a, b}));
      default ->
          CelFunctionBinding.from(id, java.util.Collections.nCopies(arity, Object.class), dispatch);
    };
  }
}
