package io.jdra.cel;

import java.util.Optional;

/** The outcome of compiling one expression: a selector, or an error. Immutable. */
public final class CompilationResult {
  private final String expression;
  private final CompiledSelector selector;
  private final CelCompileError error;
  private final long maxCost;

  private CompilationResult(
      String expression, CompiledSelector selector, CelCompileError error, long maxCost) {
    this.expression = expression;
    this.selector = selector;
    this.error = error;
    this.maxCost = maxCost;
  }

  static CompilationResult ok(CompiledSelector selector) {
    return new CompilationResult(selector.expression(), selector, null, selector.maxCost());
  }

  static CompilationResult failed(String expression, CelCompileError error, long maxCost) {
    return new CompilationResult(expression, null, error, maxCost);
  }

  public String expression() {
    return expression;
  }

  public boolean isOk() {
    return selector != null;
  }

  public Optional<CompiledSelector> selector() {
    return Optional.ofNullable(selector);
  }

  public Optional<CelCompileError> error() {
    return Optional.ofNullable(error);
  }

  /**
   * The estimated worst-case cost; {@link Long#MAX_VALUE} when unknown (compile error before
   * estimation).
   */
  public long maxCost() {
    return maxCost;
  }

  /** The selector, or an {@link IllegalArgumentException} carrying the compile error's detail. */
  public CompiledSelector orElseThrow() {
    if (selector == null) {
      throw new IllegalArgumentException(error.detail());
    }
    return selector;
  }

  @Override
  public String toString() {
    return selector != null
        ? "CompilationResult[ok: " + expression + "]"
        : "CompilationResult[" + error.detail() + "]";
  }
}
