package io.jdra.cel;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationListener;
import java.util.Collection;

/**
 * Counts the cost of one evaluation and stops it once the limit is exceeded. Every evaluated node
 * costs 1, plus a tenth of the size of the string, list or map it produced (so cost grows with the
 * data an expression touches, as cel-go's runtime cost does). One instance per evaluation.
 */
final class RuntimeCost implements CelEvaluationListener {
  static final String MESSAGE = "operation cancelled: actual cost limit exceeded";

  private final long limit;
  private long cost;

  RuntimeCost(long limit) {
    this.limit = limit;
  }

  @Override
  public void callback(CelExpr expr, Object result) {
    cost += 1 + sizeCost(result);
    if (cost > limit) {
      throw new LimitExceeded();
    }
  }

  long cost() {
    return cost;
  }

  private static long sizeCost(Object v) {
    long size =
        switch (v) {
          case String s -> s.length();
          case LazyMapValue m -> 0; // device data: bounded, and sizing would materialize it
          case Collection<?> c -> c.size();
          case java.util.Map<?, ?> m -> m.size();
          case null, default -> 0;
        };
    return (size + 9) / 10;
  }

  /** Thrown out of the listener to abort the evaluation. */
  static final class LimitExceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LimitExceeded() {
      super(MESSAGE, null, false, false);
    }
  }
}
