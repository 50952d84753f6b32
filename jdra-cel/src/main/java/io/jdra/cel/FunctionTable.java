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

  static CelFunctionBinding bind(String id, List<Class<?>> argTypes, CelFunctionOverload impl) {
    return CelFunctionBinding.from(id, argTypes, impl);
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
    bindingsByFunction.forEach(
        (name, list) -> out.addAll(CelFunctionBinding.fromOverloads(name, list)));
    return out;
  }
}
