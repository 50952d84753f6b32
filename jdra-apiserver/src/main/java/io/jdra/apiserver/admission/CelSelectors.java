package io.jdra.apiserver.admission;

import io.jdra.api.features.FeatureGates;
import io.jdra.api.validation.FieldError;
import io.jdra.api.validation.FieldPath;
import io.jdra.api.validation.SelectorCompiler;
import io.jdra.cel.CelCompileError;
import io.jdra.cel.CompilationResult;
import io.jdra.cel.CompilerOptions;
import io.jdra.cel.DeviceSelectorCompiler;
import java.util.List;

/**
 * Compiles the CEL selectors of new DeviceClasses, ResourceClaims and templates as upstream's
 * validation does: an expression that does not compile, does not yield a bool or is too costly is
 * refused at write time, not discovered by the scheduler. Thread-safe (the compiler caches).
 */
final class CelSelectors implements SelectorCompiler {
  private final DeviceSelectorCompiler compiler;

  CelSelectors(FeatureGates gates) {
    this.compiler = DeviceSelectorCompiler.create(CompilerOptions.newExpressions(gates));
  }

  @Override
  public List<FieldError> compile(String expression, FieldPath path) {
    CompilationResult r = compiler.compile(expression);
    if (r.isOk()) {
      return List.of();
    }
    CelCompileError e = r.error().orElseThrow();
    return List.of(
        switch (e.kind()) {
          case INVALID -> FieldError.invalid(path, expression, e.detail());
          case TOO_COMPLEX -> FieldError.forbidden(path, e.detail());
          case TOO_LONG -> FieldError.tooLong(path, CompilerOptions.MAX_EXPRESSION_LENGTH);
          case INTERNAL -> FieldError.internal(path, e.detail());
        });
  }
}
