package io.jdra.api.archfixture;

import io.jdra.allocator.AllocatorFeatures;
import io.jdra.allocator.internal.CelSelectors;

/** A deliberate violation (test sources only): jdra-api code using jdra-allocator's internals. */
public final class ApiUsingAllocatorInternals {
  private ApiUsingAllocatorInternals() {}

  static Object violate() {
    return CelSelectors.forFeatures(AllocatorFeatures.all());
  }
}
