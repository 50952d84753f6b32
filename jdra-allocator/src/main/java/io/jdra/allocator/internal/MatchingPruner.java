package io.jdra.allocator.internal;

/** Placeholder until the matching relaxation lands. */
final class MatchingPruner implements Pruner {
  MatchingPruner(Search search) {}

  @Override
  public boolean feasible(int c, int r, int s, int d, int start) {
    return true;
  }
}
