package io.jdra.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.types.StructType;

/** Compile-time worst-case cost estimate (placeholder until the estimator lands). */
final class CostEstimator {
  private CostEstimator() {}

  static long estimate(CelAbstractSyntaxTree ast, StructType deviceType) {
    return 0;
  }
}
