package io.jdra.api.resourceclaim;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Device taint toleration as upstream: {@code resourceclaim.ToleratesTaint} for matching, and the
 * device taint eviction controller's rule for how long a {@code NoExecute} taint is tolerated.
 * Stateless and thread-safe.
 */
public final class DeviceTolerations {
  /** Taint effect: do not schedule new pods onto the device. */
  public static final String EFFECT_NO_SCHEDULE = "NoSchedule";

  /** Taint effect: also evict running pods once their tolerations run out. */
  public static final String EFFECT_NO_EXECUTE = "NoExecute";

  /** Taint effect: informational only (used by DeviceTaintRules that just report). */
  public static final String EFFECT_NONE = "None";

  /** Toleration operator: key (if any) matches, any value. */
  public static final String OPERATOR_EXISTS = "Exists";

  /** Toleration operator (the default): key and value must be equal. */
  public static final String OPERATOR_EQUAL = "Equal";

  private DeviceTolerations() {}

  /**
   * Whether the toleration tolerates the taint: an empty effect matches every effect (including
   * {@code None}), otherwise the effects must be equal; an empty key matches every key; operator
   * {@code Exists} matches any value, {@code Equal} (also when empty) needs equal values; any other
   * operator tolerates nothing.
   */
  public static boolean toleratesTaint(DeviceToleration toleration, DeviceTaint taint) {
    String effect = nullToEmpty(toleration.getEffect());
    if (!effect.isEmpty() && !effect.equals(nullToEmpty(taint.getEffect()))) {
      return false;
    }
    String key = nullToEmpty(toleration.getKey());
    if (!key.isEmpty() && !key.equals(nullToEmpty(taint.getKey()))) {
      return false;
    }
    return switch (nullToEmpty(toleration.getOperator())) {
      case "", OPERATOR_EQUAL ->
          nullToEmpty(toleration.getValue()).equals(nullToEmpty(taint.getValue()));
      case OPERATOR_EXISTS -> true;
      default -> false;
    };
  }

  /** Whether any of the tolerations tolerates the taint. */
  public static boolean toleratesTaint(List<DeviceToleration> tolerations, DeviceTaint taint) {
    return tolerations != null && tolerations.stream().anyMatch(t -> toleratesTaint(t, taint));
  }

  /**
   * How long after the taint was added pods may keep using the device, as the device taint eviction
   * controller computes it. Only tolerations with effect {@code NoExecute} that tolerate the taint
   * count: if none does, the result is zero (evict at once); if one has no {@code
   * tolerationSeconds}, the taint is tolerated forever (empty); otherwise the smallest {@code
   * tolerationSeconds}, negative values counting as zero. Taints whose effect is not {@code
   * NoExecute} never evict (empty).
   */
  public static Optional<Duration> tolerationDuration(
      DeviceTaint taint, List<DeviceToleration> tolerations) {
    if (!EFFECT_NO_EXECUTE.equals(taint.getEffect())) {
      return Optional.empty();
    }
    long seconds = Long.MAX_VALUE;
    boolean tolerated = false;
    for (DeviceToleration t : tolerations == null ? List.<DeviceToleration>of() : tolerations) {
      if (!EFFECT_NO_EXECUTE.equals(t.getEffect()) || !toleratesTaint(t, taint)) {
        continue;
      }
      if (t.getTolerationSeconds() == null) {
        return Optional.empty();
      }
      seconds = Math.min(seconds, Math.max(0, t.getTolerationSeconds()));
      tolerated = true;
    }
    return Optional.of(tolerated ? Duration.ofSeconds(seconds) : Duration.ZERO);
  }

  /**
   * When pods using a device with this taint must be evicted: the taint's {@code timeAdded} plus
   * {@link #tolerationDuration}; empty when never.
   *
   * @throws IllegalArgumentException when an evicting taint has no or an unreadable {@code
   *     timeAdded} (the API server always sets it)
   */
  public static Optional<Instant> evictionTime(
      DeviceTaint taint, List<DeviceToleration> tolerations) {
    Optional<Duration> duration = tolerationDuration(taint, tolerations);
    if (duration.isEmpty()) {
      return Optional.empty();
    }
    Instant added = timeAdded(taint);
    Duration d = duration.get();
    // Saturate rather than overflow for absurd tolerationSeconds.
    return Optional.of(
        d.getSeconds() > Instant.MAX.getEpochSecond() - added.getEpochSecond()
            ? Instant.MAX
            : added.plus(d));
  }

  /** The earliest {@link #evictionTime} over several taints of one device; empty when never. */
  public static Optional<Instant> evictionTime(
      List<DeviceTaint> taints, List<DeviceToleration> tolerations) {
    Optional<Instant> earliest = Optional.empty();
    for (DeviceTaint taint : taints == null ? List.<DeviceTaint>of() : taints) {
      Optional<Instant> t = evictionTime(taint, tolerations);
      if (t.isPresent() && (earliest.isEmpty() || t.get().isBefore(earliest.get()))) {
        earliest = t;
      }
    }
    return earliest;
  }

  private static Instant timeAdded(DeviceTaint taint) {
    String text = taint.getTimeAdded();
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException(
          "device taint " + describe(taint) + ": timeAdded is not set");
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "device taint " + describe(taint) + ": timeAdded " + quote(text) + " is not RFC 3339", e);
    }
  }

  private static String describe(DeviceTaint taint) {
    return quote(
        nullToEmpty(taint.getKey())
            + "="
            + nullToEmpty(taint.getValue())
            + ":"
            + nullToEmpty(taint.getEffect()));
  }

  private static String quote(String s) {
    return '"' + Objects.toString(s) + '"';
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
