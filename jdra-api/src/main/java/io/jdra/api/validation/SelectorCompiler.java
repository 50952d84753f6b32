package io.jdra.api.validation;

import java.util.List;

/**
 * Hook for compiling CEL device selectors during validation (the jdra-cel module's job).
 *
 * <p>Validation itself checks only what needs no CEL environment (presence, the 10 KiB length
 * limit). When a compiler is configured in {@link ValidationOptions}, it is called for every new
 * selector expression within the length limit and returns the errors upstream reports for it: an
 * {@code Invalid} error with the expression and a {@code compilation failed: ...} detail, a {@code
 * Forbidden: too complex, exceeds cost limit}, or an {@code Internal error}. Expressions already
 * stored (unchanged on update) are not passed in, as upstream does not re-check them.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface SelectorCompiler {
  /**
   * The errors for {@code expression} at {@code path} (which is the {@code ...cel.expression}
   * field), empty when it compiles within the cost limit.
   */
  List<FieldError> compile(String expression, FieldPath path);
}
