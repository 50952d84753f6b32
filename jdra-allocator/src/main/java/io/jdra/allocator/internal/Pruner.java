package io.jdra.allocator.internal;

/**
 * Sound pruning for the search: {@link #feasible} returns false only when no completion of the
 * current partial allocation exists, so the first solution found in search order stays the same.
 */
interface Pruner {
  /**
   * Whether the remaining devices (from device {@code d} of request {@code r}, subrequest {@code s}
   * of claim {@code c} on, next candidate at search position {@code start}) may still be found.
   */
  boolean feasible(int c, int r, int s, int d, int start);
}
