package io.jdra.cli.simulate;

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
 * Compiles a scenario's CEL selectors when it is read, as the API server does when a claim is
 * written: an expression that does not compile is a scenario error, not an unschedulable pod.
 */
final class CelCheck implements SelectorCompiler {
  private final DeviceSelectorCompiler compiler;

  CelCheck(FeatureGates gates) {
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
