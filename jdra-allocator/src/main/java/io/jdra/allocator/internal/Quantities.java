package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;

/** Exact arithmetic on fabric8 quantities through jdra-api's {@code Quantity}. */
public final class Quantities {
  private Quantities() {}

  /** The exact value; zero for null. */
  public static BigDecimal value(Quantity q) {
    if (q == null) {
      return BigDecimal.ZERO;
    }
    return io.jdra.api.quantity.Quantity.of(q).toBigDecimal();
  }

  /** Upstream {@code Quantity.Value()}: rounded up to an integer. */
  static long ceilLong(Quantity q) {
    return io.jdra.api.quantity.Quantity.of(q).value();
  }

  /** Upstream {@code resource.NewQuantity(value, BinarySI)}. */
  static Quantity binarySi(long value) {
    return io.jdra.api.quantity.Quantity.ofLong(
            value, io.jdra.api.quantity.Quantity.Format.BINARY_SI)
        .toFabric8();
  }

  /** A copy in canonical form, as Kubernetes serializes quantities. */
  static Quantity copy(Quantity q) {
    return io.jdra.api.quantity.Quantity.of(q).toFabric8();
  }
}
