package io.jdra.cel;

import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;

/**
 * How selectors are compiled. Immutable; validated at construction.
 *
 * @param listTypeAttributes DRAListTypeAttributes: list-valued attributes and {@code includes()}
 * @param consumableCapacity DRAConsumableCapacity: the {@code device.allowMultipleAllocations}
 *     field
 * @param costLimit the CEL cost limit per evaluation (upstream {@code
 *     CELSelectorExpressionMaxCost}, 1,000,000); also the compile-time limit for estimates
 * @param rejectTooComplex whether an expression whose estimated worst-case cost exceeds {@code
 *     costLimit} fails to compile ("too complex, exceeds cost limit"), as the API server does for
 *     new objects. When false (for expressions already stored, as the allocator compiles them),
 *     such an expression compiles and is evaluated with runtime cost tracking instead
 */
public record CompilerOptions(
    boolean listTypeAttributes,
    boolean consumableCapacity,
    long costLimit,
    boolean rejectTooComplex) {

  /** resourceapi.CELSelectorExpressionMaxCost. */
  public static final long DEFAULT_COST_LIMIT = 1_000_000;

  /** resourceapi.CELSelectorExpressionMaxLength, in bytes. */
  public static final int MAX_EXPRESSION_LENGTH = 10 * 1024;

  public CompilerOptions {
    if (costLimit <= 0) {
      throw new IllegalArgumentException("CEL cost limit must be positive, got " + costLimit);
    }
  }

  /** Both feature gates off, the default cost limit, too complex expressions rejected. */
  public static CompilerOptions defaults() {
    return new CompilerOptions(false, false, DEFAULT_COST_LIMIT, true);
  }

  /**
   * For expressions that an API server already accepted (upstream's StoredExpressions environment,
   * which the allocator uses): every field and function of the newest environment whatever the
   * feature gates say, no rejection by estimate, runtime cost limit enforced. Do not narrow the
   * feature flags for this use: upstream ignores the gates here, so that stored objects keep
   * working after a gate is turned off.
   */
  public static CompilerOptions storedExpressions() {
    return new CompilerOptions(true, true, DEFAULT_COST_LIMIT, false);
  }

  /**
   * For validating new or changed expressions (upstream's NewExpressions environment): fields and
   * functions as the feature gates say, expressions whose estimated cost exceeds the limit
   * rejected.
   */
  public static CompilerOptions newExpressions(FeatureGates gates) {
    return new CompilerOptions(
        gates.enabled(Feature.DRA_LIST_TYPE_ATTRIBUTES),
        gates.enabled(Feature.DRA_CONSUMABLE_CAPACITY),
        DEFAULT_COST_LIMIT,
        true);
  }

  public CompilerOptions withListTypeAttributes(boolean on) {
    return new CompilerOptions(on, consumableCapacity, costLimit, rejectTooComplex);
  }

  public CompilerOptions withConsumableCapacity(boolean on) {
    return new CompilerOptions(listTypeAttributes, on, costLimit, rejectTooComplex);
  }

  public CompilerOptions withCostLimit(long limit) {
    return new CompilerOptions(listTypeAttributes, consumableCapacity, limit, rejectTooComplex);
  }

  public CompilerOptions withRejectTooComplex(boolean reject) {
    return new CompilerOptions(listTypeAttributes, consumableCapacity, costLimit, reject);
  }
}
