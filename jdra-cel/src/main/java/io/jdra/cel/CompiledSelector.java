package io.jdra.cel;

/**
 * A compiled device selector. Immutable and thread-safe: evaluate it from any number of threads.
 */
public interface CompiledSelector {
  /** The source expression. */
  String expression();

  /** The estimated worst-case cost of one evaluation, in CEL cost units. */
  long maxCost();

  /**
   * Whether the device matches.
   *
   * @throws CelEvaluationException when evaluation fails (no such key, not a bool, cost limit
   *     exceeded, function error); the device then neither matches nor not matches and upstream
   *     aborts the allocation attempt
   */
  boolean matches(DeviceInput device) throws CelEvaluationException;
}
