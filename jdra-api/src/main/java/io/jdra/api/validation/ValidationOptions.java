package io.jdra.api.validation;

import java.util.Objects;
import java.util.Optional;

/**
 * Options for {@link Validation}.
 *
 * @param selectorCompiler compiles CEL selectors (see {@link SelectorCompiler}); empty by default,
 *     in which case selectors are checked only for presence and length
 */
public record ValidationOptions(Optional<SelectorCompiler> selectorCompiler) {

  private static final ValidationOptions DEFAULTS = new ValidationOptions(Optional.empty());

  /** Checks that the optional itself is present. */
  public ValidationOptions {
    Objects.requireNonNull(selectorCompiler, "selectorCompiler (use Optional.empty())");
  }

  /** No selector compiler. */
  public static ValidationOptions defaults() {
    return DEFAULTS;
  }

  /** These options with the given selector compiler. */
  public ValidationOptions withSelectorCompiler(SelectorCompiler compiler) {
    return new ValidationOptions(Optional.of(Objects.requireNonNull(compiler, "compiler")));
  }
}
