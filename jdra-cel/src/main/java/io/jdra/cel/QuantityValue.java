package io.jdra.cel;

import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.values.CelValue;
import io.jdra.api.quantity.Quantity;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Kubernetes resource quantity as the CEL type {@code kubernetes.Quantity}. Equality is numeric
 * ({@code quantity("1k") == quantity("1000")}), as upstream.
 */
final class QuantityValue extends CelValue implements Comparable<QuantityValue> {
  static final OpaqueType TYPE = OpaqueType.create("kubernetes.Quantity");

  private final Quantity quantity;

  QuantityValue(Quantity quantity) {
    this.quantity = quantity;
  }

  /**
   * Parsed values by text. Selectors compare against the same few constants and devices publish the
   * same few capacities, so parsing once per distinct text saves most of a quantity comparison.
   * Bounded; cleared when full.
   */
  private static final ConcurrentHashMap<String, QuantityValue> PARSED = new ConcurrentHashMap<>();

  private static final int MAX_PARSED = 4096;

  static QuantityValue of(io.fabric8.kubernetes.api.model.Quantity q) {
    String key = q.getAmount() + (q.getFormat() == null ? "" : q.getFormat());
    QuantityValue v = PARSED.get(key);
    if (v == null) {
      v = remember(key, new QuantityValue(Quantity.of(q)));
    }
    return v;
  }

  /** Parses like Quantity.parse (same exceptions), through the cache. */
  static QuantityValue parse(String s) {
    QuantityValue v = PARSED.get(s);
    if (v == null) {
      v = remember(s, new QuantityValue(Quantity.parse(s)));
    }
    return v;
  }

  private static QuantityValue remember(String key, QuantityValue v) {
    if (PARSED.size() >= MAX_PARSED) {
      PARSED.clear();
    }
    PARSED.put(key, v);
    return v;
  }

  /** From a builder value: a Quantity or a quantity string. */
  static QuantityValue ofPlain(Object raw) {
    return switch (raw) {
      case Quantity q -> new QuantityValue(q);
      case String s -> parse(s);
      case io.fabric8.kubernetes.api.model.Quantity q -> of(q);
      default ->
          throw new IllegalArgumentException(
              "capacity: unsupported value of " + raw.getClass().getName());
    };
  }

  Quantity quantity() {
    return quantity;
  }

  @Override
  public int compareTo(QuantityValue o) {
    return Integer.signum(quantity.compareTo(o.quantity));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QuantityValue q && quantity.compareTo(q.quantity) == 0;
  }

  @Override
  public int hashCode() {
    return quantity.hashCode();
  }

  @Override
  public String toString() {
    return quantity.toString();
  }

  @Override
  public Object value() {
    return this;
  }

  @Override
  public boolean isZeroValue() {
    return quantity.isZero();
  }

  @Override
  public CelType celType() {
    return TYPE;
  }
}
