package io.jdra.api.validation;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleSpec;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** Checks of device taints, device tolerations and DeviceTaintRule specs. */
final class TaintValidation {
  /** Valid taint effects, in upstream's (sorted) order for error messages. */
  static final List<String> EFFECTS = List.of("NoExecute", "NoSchedule", "None");

  private static final Set<String> EFFECT_SET = Set.copyOf(EFFECTS);

  private TaintValidation() {}

  /**
   * A taint: key a label name, value a label value, effect required and one of NoSchedule,
   * NoExecute, None. The effect is only checked when new or changed ({@code old} is the previous
   * version of the same taint, or {@code null}).
   */
  static List<FieldError> taint(DeviceTaint taint, DeviceTaint old, FieldPath path) {
    List<FieldError> errs =
        new ArrayList<>(NameValidation.validateLabelName(taint.getKey(), path.child("key")));
    String value = MetaValidation.nz(taint.getValue());
    if (!value.isEmpty()) {
      errs.addAll(NameValidation.validateLabelValue(value, path.child("value")));
    }
    String effect = MetaValidation.nz(taint.getEffect());
    if (old == null || !Objects.equals(MetaValidation.nz(old.getEffect()), effect)) {
      if (effect.isEmpty()) {
        errs.add(FieldError.required(path.child("effect"), ""));
      } else if (!EFFECT_SET.contains(effect)) {
        errs.add(FieldError.notSupported(path.child("effect"), effect, EFFECTS));
      }
    }
    return errs;
  }

  /**
   * A toleration: optional key (a label name), operator Exists (no value) or Equal (value a label
   * value), optional effect among the taint effects.
   */
  static List<FieldError> toleration(DeviceToleration t, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    String key = MetaValidation.nz(t.getKey());
    if (!key.isEmpty()) {
      errs.addAll(NameValidation.validateLabelName(key, path.child("key")));
    }
    String value = MetaValidation.nz(t.getValue());
    String operator = MetaValidation.nz(t.getOperator());
    switch (operator) {
      case "Exists" -> {
        if (!value.isEmpty()) {
          errs.add(
              FieldError.invalid(
                  path.child("value"), value, "must be empty for operator `Exists`"));
        }
      }
      case "Equal" -> errs.addAll(NameValidation.validateLabelValue(value, path.child("value")));
      case "" -> errs.add(FieldError.required(path.child("operator"), ""));
      default ->
          errs.add(
              FieldError.notSupported(
                  path.child("operator"), operator, List.of("Equal", "Exists")));
    }
    String effect = MetaValidation.nz(t.getEffect());
    if (!effect.isEmpty() && !EFFECT_SET.contains(effect)) {
      errs.add(FieldError.notSupported(path.child("effect"), effect, EFFECTS));
    }
    return errs;
  }

  /** A DeviceTaintRule spec; {@code old} is the previous spec on update, else {@code null}. */
  static List<FieldError> ruleSpec(
      DeviceTaintRuleSpec spec, DeviceTaintRuleSpec old, FieldPath path) {
    DeviceTaintRuleSpec s = spec == null ? new DeviceTaintRuleSpec() : spec;
    List<FieldError> errs =
        new ArrayList<>(selector(s.getDeviceSelector(), path.child("deviceSelector")));
    DeviceTaint taint = s.getTaint() == null ? new DeviceTaint() : s.getTaint();
    DeviceTaint oldTaint = null;
    if (old != null) {
      oldTaint = old.getTaint() == null ? new DeviceTaint() : old.getTaint();
    }
    errs.addAll(taint(taint, oldTaint, path.child("taint")));
    return errs;
  }

  private static List<FieldError> selector(DeviceTaintSelector selector, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    if (selector == null) {
      return errs;
    }
    if (selector.getDriver() != null) {
      errs.addAll(NameValidation.validateDriverName(selector.getDriver(), path.child("driver")));
    }
    if (selector.getPool() != null) {
      errs.addAll(NameValidation.validatePoolName(selector.getPool(), path.child("pool")));
    }
    if (selector.getDevice() != null) {
      errs.addAll(NameValidation.validateDns1123Label(selector.getDevice(), path.child("device")));
    }
    return errs;
  }
}
