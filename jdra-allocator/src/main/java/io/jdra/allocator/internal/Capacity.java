package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyRange;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirements;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Consumable capacity (DRAConsumableCapacity): how much of each capacity a request consumes on a
 * device after rounding by the device's request policy, and whether it still fits.
 */
final class Capacity {
  private Capacity() {}

  /** Result of the fit check: fits, does not fit, or the request names an unknown capacity. */
  enum Fit {
    FITS,
    EXHAUSTED,
    UNKNOWN_CAPACITY
  }

  /**
   * Upstream {@code CmpRequestOverCapacity}: for every capacity of the device, already consumed +
   * being allocated + this request's consumption must not exceed the value, and the consumption
   * must satisfy the policy.
   */
  static Fit fits(
      Map<String, BigDecimal> alreadyConsumed,
      CapacityRequirements request,
      Map<String, DeviceCapacity> deviceCapacity,
      Map<String, BigDecimal> allocating) {
    Map<String, DeviceCapacity> caps = deviceCapacity == null ? Map.of() : deviceCapacity;
    if (request != null && request.getRequests() != null) {
      for (String name : request.getRequests().keySet()) {
        if (!caps.containsKey(name)) {
          return Fit.UNKNOWN_CAPACITY;
        }
      }
    }
    for (Map.Entry<String, DeviceCapacity> e : caps.entrySet()) {
      String name = e.getKey();
      DeviceCapacity cap = e.getValue();
      Quantity requested =
          request == null || request.getRequests() == null ? null : request.getRequests().get(name);
      Quantity consumed = consumed(requested, cap);
      if (violatesPolicy(consumed, cap.getRequestPolicy())) {
        return Fit.EXHAUSTED;
      }
      BigDecimal total = Quantities.value(consumed);
      if (alreadyConsumed != null) {
        total = total.add(alreadyConsumed.getOrDefault(name, BigDecimal.ZERO));
      }
      if (allocating != null) {
        total = total.add(allocating.getOrDefault(name, BigDecimal.ZERO));
      }
      if (total.compareTo(Quantities.value(cap.getValue())) > 0) {
        return Fit.EXHAUSTED;
      }
    }
    return Fit.FITS;
  }

  /** Upstream {@code GetConsumedCapacityFromRequest}: every capacity of the device, by name. */
  static Map<String, Quantity> consumedByRequest(
      CapacityRequirements request, Map<String, DeviceCapacity> deviceCapacity) {
    Map<String, Quantity> out = new TreeMap<>();
    if (deviceCapacity == null) {
      return out;
    }
    for (Map.Entry<String, DeviceCapacity> e : deviceCapacity.entrySet()) {
      Quantity requested =
          request == null || request.getRequests() == null
              ? null
              : request.getRequests().get(e.getKey());
      out.put(e.getKey(), consumed(requested, e.getValue()));
    }
    return out;
  }

  static Map<String, BigDecimal> values(Map<String, Quantity> quantities) {
    Map<String, BigDecimal> out = new LinkedHashMap<>();
    quantities.forEach((k, v) -> out.put(k, Quantities.value(v)));
    return out;
  }

  private static Quantity consumed(Quantity requested, DeviceCapacity cap) {
    CapacityRequestPolicy policy = cap.getRequestPolicy();
    if (requested == null) {
      if (policy != null && policy.getDefault() != null) {
        return Quantities.copy(policy.getDefault());
      }
      return Quantities.copy(cap.getValue());
    }
    if (policy == null) {
      return Quantities.copy(requested);
    }
    if (policy.getValidRange() != null && policy.getValidRange().getMin() != null) {
      return roundUpRange(requested, policy.getValidRange());
    }
    if (policy.getValidValues() != null) {
      for (Quantity valid : policy.getValidValues()) {
        if (Quantities.value(requested).compareTo(Quantities.value(valid)) <= 0) {
          return Quantities.copy(valid);
        }
      }
    }
    return Quantities.copy(requested);
  }

  private static Quantity roundUpRange(Quantity requested, CapacityRequestPolicyRange range) {
    if (Quantities.value(requested).compareTo(Quantities.value(range.getMin())) < 0) {
      return Quantities.copy(range.getMin());
    }
    if (range.getStep() == null) {
      return Quantities.copy(requested);
    }
    long req = Quantities.ceilLong(requested);
    long step = Quantities.ceilLong(range.getStep());
    long min = Quantities.ceilLong(range.getMin());
    long added = req - min;
    long n = added / step;
    if (added % step != 0) {
      n++;
    }
    return Quantities.binarySi(min + step * n);
  }

  private static boolean violatesPolicy(Quantity consumed, CapacityRequestPolicy policy) {
    if (policy == null) {
      return false;
    }
    BigDecimal value = Quantities.value(consumed);
    if (policy.getDefault() != null
        && value.compareTo(Quantities.value(policy.getDefault())) == 0) {
      return false;
    }
    CapacityRequestPolicyRange range = policy.getValidRange();
    if (range != null) {
      if (range.getMax() != null && value.compareTo(Quantities.value(range.getMax())) > 0) {
        return true;
      }
      if (range.getStep() != null) {
        long step = Quantities.ceilLong(range.getStep());
        long min = Quantities.ceilLong(range.getMin());
        long v = Quantities.ceilLong(consumed);
        return step != 0 && (v - min) % step != 0;
      }
      return false;
    }
    List<Quantity> valid = policy.getValidValues();
    if (valid != null && !valid.isEmpty()) {
      for (Quantity q : valid) {
        if (value.compareTo(Quantities.value(q)) == 0) {
          return false;
        }
      }
      return true;
    }
    return false;
  }
}
