package io.jdra.api.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleSpecBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleStatus;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleStatusBuilder;
import io.jdra.api.defaulting.Defaults;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * What the API server does to a DeviceTaintRule write before validating and storing it (upstream
 * {@code devicetaintrule/strategy.go}). There are no gated fields: the kind itself is behind
 * DRADeviceTaintRules. Pure functions returning new objects; no clock is read, the caller passes
 * {@code now}. Stateless and thread-safe. Apply {@link
 * io.jdra.api.defaulting.Defaults#deviceTaintRule} (which sets an unset {@code timeAdded}) to the
 * body first.
 */
public final class DeviceTaintRuleStrategy {
  private DeviceTaintRuleStrategy() {}

  /** Create: the status is reset (users cannot set it) and the generation is 1. */
  public static DeviceTaintRule prepareForCreate(DeviceTaintRule rule) {
    Objects.requireNonNull(rule, "rule");
    return new DeviceTaintRuleBuilder(rule)
        .withStatus(new DeviceTaintRuleStatus())
        .withMetadata(Meta.withGeneration(rule.getMetadata(), 1L))
        .build();
  }

  /**
   * Update of the main resource: the stored status is kept; when the taint's effect changed and the
   * client left {@code timeAdded} as stored, {@code timeAdded} becomes {@code now} (whole seconds),
   * so it tracks when the current effect was added; the generation is the stored one plus one when
   * the spec changed, else the stored one.
   */
  public static DeviceTaintRule prepareForUpdate(
      DeviceTaintRule rule, DeviceTaintRule old, Instant now) {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(old, "old");
    Objects.requireNonNull(now, "now");
    DeviceTaintRuleStatus oldStatus =
        old.getStatus() == null
            ? new DeviceTaintRuleStatus()
            : new DeviceTaintRuleStatusBuilder(old.getStatus()).build();
    DeviceTaintRule copy = new DeviceTaintRuleBuilder(rule).withStatus(oldStatus).build();
    DeviceTaint taint = copy.getSpec() == null ? null : copy.getSpec().getTaint();
    DeviceTaint oldTaint = old.getSpec() == null ? null : old.getSpec().getTaint();
    if (taint != null
        && !Objects.equals(taint.getEffect(), oldTaint == null ? null : oldTaint.getEffect())
        && sameTime(taint.getTimeAdded(), oldTaint == null ? null : oldTaint.getTimeAdded())) {
      taint.setTimeAdded(Defaults.formatTime(now));
    }
    Long generation =
        Semantic.equal(old.getSpec(), copy.getSpec())
            ? (old.getMetadata() == null ? null : old.getMetadata().getGeneration())
            : Long.valueOf(Meta.next(old.getMetadata()));
    copy.setMetadata(Meta.withGeneration(copy.getMetadata(), generation));
    return copy;
  }

  /** Update through {@code /status}: the stored spec and status-immutable metadata are kept. */
  public static DeviceTaintRule prepareForStatusUpdate(DeviceTaintRule rule, DeviceTaintRule old) {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(old, "old");
    return new DeviceTaintRuleBuilder(rule)
        .withSpec(
            old.getSpec() == null ? null : new DeviceTaintRuleSpecBuilder(old.getSpec()).build())
        .withMetadata(Meta.resetForStatus(rule.getMetadata(), old.getMetadata()))
        .build();
  }

  /** Upstream {@code metav1.Time.Equal}: both unset, or the same instant. */
  private static boolean sameTime(String a, String b) {
    if (a == null || b == null) {
      return a == b;
    }
    try {
      return OffsetDateTime.parse(a).toInstant().equals(OffsetDateTime.parse(b).toInstant());
    } catch (DateTimeParseException e) {
      return a.equals(b);
    }
  }
}
