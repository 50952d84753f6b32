package io.jdra.controllers.devicetainteviction;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRule;
import io.jdra.api.resourceclaim.DeviceTolerations;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The {@code EvictionInProgress} condition of a DeviceTaintRule, worded as upstream's controller
 * words it, and the cadence of its updates. Pure functions; thread-safe.
 */
final class RuleConditions {
  /** The condition type (upstream {@code DeviceTaintConditionEvictionInProgress}). */
  static final String TYPE = "EvictionInProgress";

  /**
   * The shortest time between two status updates of one rule while eviction is in progress; it also
   * delays the update after a deletion so that the informer has seen it.
   */
  static final Duration STATUS_PERIOD = Duration.ofSeconds(10);

  /** What the condition reports. Device counts are only set for effect {@code None}. */
  record Counts(
      long publishedDevices,
      long allocatedDevices,
      long pendingPods,
      long pendingNamespaces,
      long evictedPods) {}

  private RuleConditions() {}

  static String effect(DeviceTaintRule rule) {
    if (rule.getSpec() == null || rule.getSpec().getTaint() == null) {
      return "";
    }
    return Objects.requireNonNullElse(rule.getSpec().getTaint().getEffect(), "");
  }

  /** The rule's current EvictionInProgress condition, or null. */
  static Condition existing(DeviceTaintRule rule) {
    if (rule.getStatus() == null || rule.getStatus().getConditions() == null) {
      return null;
    }
    for (Condition c : rule.getStatus().getConditions()) {
      if (TYPE.equals(c.getType())) {
        return c;
      }
    }
    return null;
  }

  /**
   * How long to wait before the condition may be recomputed: positive while the condition was
   * written less than {@link #STATUS_PERIOD} ago for the current generation, zero otherwise.
   * Checked before counting, because counting visits every pod.
   */
  static Duration waitBeforeUpdate(DeviceTaintRule rule, Instant now) {
    Condition c = existing(rule);
    if (c == null
        || !Objects.equals(c.getObservedGeneration(), rule.getMetadata().getGeneration())) {
      return Duration.ZERO;
    }
    Instant last = parse(c.getLastTransitionTime());
    if (last == null) {
      return Duration.ZERO;
    }
    Duration since = Duration.between(last, now);
    return since.compareTo(STATUS_PERIOD) < 0 ? STATUS_PERIOD.minus(since) : Duration.ZERO;
  }

  /**
   * The condition the rule should have, or null when the existing one already says that (its {@code
   * lastTransitionTime} is then kept). Every change, even of the message only, gets {@code now} as
   * {@code lastTransitionTime}: that time paces the updates.
   */
  static Condition desired(DeviceTaintRule rule, Counts counts, Instant now) {
    String effect = effect(rule);
    String status = "False";
    String reason;
    StringBuilder msg = new StringBuilder();
    switch (effect) {
      case DeviceTolerations.EFFECT_NO_EXECUTE -> {
        if (counts.pendingPods() > 0) {
          status = "True";
          reason = "PodsPendingEviction";
          msg.append(
                  counts.pendingPods() == 1 ? "1 pod needs" : counts.pendingPods() + " pods need")
              .append(" to be evicted in ")
              .append(namespaces(counts.pendingNamespaces()))
              .append('.');
        } else if (counts.evictedPods() > 0) {
          reason = "Completed";
        } else {
          reason = "NotStarted";
        }
      }
      case DeviceTolerations.EFFECT_NONE -> {
        reason = "NoEffect";
        msg.append(plural(counts.publishedDevices(), "published device", "published devices"))
            .append(" selected. ")
            .append(plural(counts.allocatedDevices(), "allocated device", "allocated devices"))
            .append(" selected. ")
            .append(plural(counts.pendingPods(), "pod", "pods"))
            .append(" would be evicted in ")
            .append(namespaces(counts.pendingNamespaces()))
            .append(
                " if the effect was NoExecute. This information will not be updated again."
                    + " Recreate the DeviceTaintRule to trigger an update.");
      }
      default -> {
        reason = "OtherEffect";
        msg.append("Eviction only happens for the NoExecute effect.");
      }
    }
    if (counts.evictedPods() > 0) {
      if (!msg.isEmpty()) {
        msg.append(' ');
      }
      msg.append(plural(counts.evictedPods(), "pod", "pods"))
          .append(" evicted since starting the controller.");
    }
    Condition old = existing(rule);
    Long generation = rule.getMetadata().getGeneration();
    if (old != null
        && status.equals(old.getStatus())
        && reason.equals(old.getReason())
        && msg.toString().equals(Objects.requireNonNullElse(old.getMessage(), ""))
        && Objects.equals(generation, old.getObservedGeneration())) {
      return null;
    }
    return new ConditionBuilder()
        .withType(TYPE)
        .withStatus(status)
        .withReason(reason)
        .withMessage(msg.toString())
        .withObservedGeneration(generation)
        .withLastTransitionTime(now.truncatedTo(ChronoUnit.SECONDS).toString())
        .build();
  }

  private static String namespaces(long n) {
    return n == 1 ? "1 namespace" : n + " different namespaces";
  }

  private static String plural(long n, String one, String many) {
    return n == 1 ? "1 " + one : n + " " + many;
  }

  private static Instant parse(String time) {
    try {
      return time == null ? null : Instant.parse(time);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
