package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import java.util.List;

/** Checks of a consumable capacity's {@code requestPolicy} (DRAConsumableCapacity). */
final class CapacityPolicyValidation {
  private CapacityPolicyValidation() {}

  static List<FieldError> requestPolicy(
      Quantity capacity, CapacityRequestPolicy policy, FieldPath path) {
    return List.of();
  }
}
