package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyRange;
import io.jdra.api.quantity.Quantity;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks of a consumable capacity's {@code requestPolicy} (DRAConsumableCapacity): one of {@code
 * validValues} (sorted, unique, at most 10, within the capacity, containing the default) or {@code
 * validRange} (min required, min/max/default/step consistent with each other and the capacity).
 * Step arithmetic uses integer values, as upstream does without DRAFractionalCapacityRange.
 */
final class CapacityPolicyValidation {
  static final int VALID_VALUES_MAX = 10;
  private static final Quantity MAX_INT64 =
      Quantity.ofLong(Long.MAX_VALUE, Quantity.Format.DECIMAL_SI);

  private CapacityPolicyValidation() {}

  static List<FieldError> requestPolicy(
      io.fabric8.kubernetes.api.model.Quantity capacity,
      CapacityRequestPolicy policy,
      FieldPath path) {
    try {
      return checkedRequestPolicy(capacity, policy, path);
    } catch (IllegalArgumentException e) {
      // Unparsable quantities are rejected when decoding in the API server; never crash here.
      return List.of(FieldError.invalid(path, FieldError.OMITTED, e.getMessage()));
    }
  }

  private static List<FieldError> checkedRequestPolicy(
      io.fabric8.kubernetes.api.model.Quantity capacity,
      CapacityRequestPolicy policy,
      FieldPath path) {
    Quantity max = q(capacity);
    List<io.fabric8.kubernetes.api.model.Quantity> values = Lists.nn(policy.getValidValues());
    if (!values.isEmpty() && policy.getValidRange() != null) {
      return List.of(
          FieldError.forbidden(
              path,
              "exactly one policy can be specified, cannot specify \"validValues\" and"
                  + " \"validRange\" at the same time"));
    }
    if (!values.isEmpty()) {
      if (policy.getDefault() == null) {
        return List.of(
            FieldError.required(path.child("default"), "required when validValues is defined"));
      }
      return validValues(
          q(policy.getDefault()),
          max,
          values.stream().map(CapacityPolicyValidation::q).toList(),
          path.child("validValues"));
    }
    if (policy.getValidRange() != null) {
      if (policy.getDefault() == null) {
        return List.of(
            FieldError.required(path.child("default"), "required when validRange is defined"));
      }
      return validRange(
          q(policy.getDefault()), max, policy.getValidRange(), path.child("validRange"));
    }
    return List.of();
  }

  private static List<FieldError> validValues(
      Quantity def, Quantity max, List<Quantity> values, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    for (int i = 0; i + 1 < values.size(); i++) {
      if (values.get(i).compareTo(values.get(i + 1)) > 0) {
        errs.add(
            FieldError.invalid(
                path.index(i + 1),
                values.get(i + 1).toString(),
                "values must be sorted in ascending order"));
      }
    }
    boolean[] foundDefault = {false};
    errs.addAll(
        Lists.set(
            values,
            VALID_VALUES_MAX,
            (option, p) -> {
              List<FieldError> e = new ArrayList<>();
              if (option.compareTo(max) > 0) {
                e.add(
                    FieldError.invalid(
                        p, option.toString(), "option is larger than capacity value: " + max));
              }
              if (option.compareTo(def) == 0) {
                foundDefault[0] = true;
              }
              return e;
            },
            option -> Long.toString(option.value()),
            path));
    if (!foundDefault[0]) {
      errs.add(
          FieldError.invalid(
              path, def.toString(), "default value is not valid according to the requestPolicy"));
    }
    return errs;
  }

  private static List<FieldError> validRange(
      Quantity def, Quantity cap, CapacityRequestPolicyRange range, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    if (range.getMin() == null) {
      errs.add(FieldError.required(path.child("min"), "required when validRange is defined"));
      return errs;
    }
    Quantity min = q(range.getMin());
    Quantity max = range.getMax() == null ? null : q(range.getMax());
    Quantity step = range.getStep() == null ? null : q(range.getStep());
    if (min.compareTo(cap) > 0) {
      errs.add(
          FieldError.invalid(
              path.child("min"), min.toString(), "min is larger than capacity value: " + cap));
    }
    if (def.compareTo(min) < 0) {
      errs.add(
          FieldError.invalid(
              path.child("default"), def.toString(), "default is less than min: " + min));
    }
    if (max != null) {
      if (min.compareTo(max) > 0) {
        errs.add(
            FieldError.invalid(
                path.child("max"), min.toString(), "min is larger than max: " + max));
      }
      if (max.compareTo(cap) > 0) {
        errs.add(
            FieldError.invalid(
                path.child("max"), max.toString(), "max is larger than capacity value: " + cap));
      }
      if (def.compareTo(max) > 0) {
        errs.add(
            FieldError.invalid(
                path.child("default"), def.toString(), "default is more than max: " + max));
      }
    }
    if (step != null) {
      errs.addAll(step(def, cap, min, max, step, path));
    }
    return errs;
  }

  private static List<FieldError> step(
      Quantity def, Quantity cap, Quantity min, Quantity max, Quantity step, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    if (step.signum() <= 0) {
      errs.add(
          FieldError.invalid(path.child("step"), step.toString(), "must be greater than zero"));
      return errs;
    }
    Quantity added = min.add(step);
    if (added.compareTo(cap) > 0) {
      errs.add(
          FieldError.invalid(
              path.child("step"),
              step.toString(),
              "one step " + added + " is larger than capacity value: " + cap));
    }
    // Value() only works in [0, MaxInt64]; reject anything outside before the arithmetic.
    boolean unsafe = false;
    unsafe |= int64Range(def, path.child("default"), errs);
    unsafe |= int64Range(min, path.child("min"), errs);
    if (max != null) {
      unsafe |= int64Range(max, path.child("max"), errs);
    }
    unsafe |= int64Range(step, path.child("step"), errs);
    if (!unsafe) {
      errs.addAll(multipleOfStep(def, min, step, path.child("step")));
      if (max != null) {
        errs.addAll(multipleOfStep(max, min, step, path.child("step")));
      }
    }
    return errs;
  }

  private static boolean int64Range(Quantity value, FieldPath path, List<FieldError> errs) {
    if (value.signum() < 0) {
      errs.add(FieldError.invalid(path, value.toString(), "must be greater than or equal to 0"));
      return true;
    }
    if (value.compareTo(MAX_INT64) > 0) {
      errs.add(
          FieldError.invalid(
              path, value.toString(), "must not be larger than 9223372036854775807"));
      return true;
    }
    return false;
  }

  private static List<FieldError> multipleOfStep(
      Quantity value, Quantity min, Quantity step, FieldPath path) {
    if ((value.value() - min.value()) % step.value() != 0) {
      return List.of(
          FieldError.invalid(
              path,
              value.toString(),
              "value is not a multiple of a given step (" + step + ") from (" + min + ")"));
    }
    return List.of();
  }

  private static Quantity q(io.fabric8.kubernetes.api.model.Quantity q) {
    return q == null ? Quantity.ofLong(0, Quantity.Format.DECIMAL_SI) : Quantity.of(q);
  }
}
