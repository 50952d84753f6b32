package io.jdra.allocator;

/**
 * Allocation could not be attempted or had to stop: unknown class, CEL compile or runtime error,
 * unsupported request, a feature used while its gate is off, "all" devices from an incomplete pool,
 * too many results, invalid pools without a solution, the deadline. Distinct from "cannot allocate"
 * ({@link AllocationOutcome.Unschedulable}). Messages are upstream's.
 */
public final class AllocationException extends Exception {
  private static final long serialVersionUID = 1L;

  public AllocationException(String message) {
    super(message);
  }

  public AllocationException(String message, Throwable cause) {
    super(message, cause);
  }
}
