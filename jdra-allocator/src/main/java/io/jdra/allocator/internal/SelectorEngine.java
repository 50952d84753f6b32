package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.Device;

/**
 * Compiles and evaluates CEL device selectors. The allocator only needs "compiled selector:
 * matches(device) -> bool or error"; the production engine is jdra-cel. Implementations must be
 * thread-safe.
 */
public interface SelectorEngine {
  /** Compiles (or takes from a cache) one expression; never throws. */
  Compiled compile(String expression);

  /** What selectors see of a device; built once per device and allocation. */
  Object view(String driver, Device device);

  /** A compiled expression. */
  interface Compiled {
    /** The compile error, or null when the expression compiled. */
    String compileError();

    /** Evaluates against a {@link #view}; throws with the CEL runtime error. */
    boolean matches(Object view) throws EvaluationException;
  }

  /** A CEL runtime error (no such key, cost limit, wrong type, ...). */
  final class EvaluationException extends Exception {
    private static final long serialVersionUID = 1L;

    public EvaluationException(String message) {
      super(message, null, false, false);
    }
  }
}
